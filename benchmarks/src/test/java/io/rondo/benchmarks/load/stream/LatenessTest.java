package io.rondo.benchmarks.load.stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatenessTest {

    private static final long MS = 1_000_000L;

    @Test
    void latenessIsArrivalMinusAcceptArrivalPlusDeadline() {
        long acceptArrivalNs = 5_000 * MS;
        assertEquals(-800 * MS, Lateness.of(5_200 * MS, acceptArrivalNs, 1_000 * MS));
        assertEquals(3 * MS, Lateness.of(7_003 * MS, acceptArrivalNs, 2_000 * MS));
    }

    @Test
    void aFragmentIsLateOnlyWhenItsLastByteArrivesAfterTheDeadline() {
        long acceptArrivalNs = 42;
        long deadlineNs = 1_000 * MS;
        assertFalse(Lateness.isLate(Lateness.of(acceptArrivalNs + deadlineNs - 1, acceptArrivalNs, deadlineNs)));
        assertFalse(Lateness.isLate(Lateness.of(acceptArrivalNs + deadlineNs, acceptArrivalNs, deadlineNs)));
        assertTrue(Lateness.isLate(Lateness.of(acceptArrivalNs + deadlineNs + 1, acceptArrivalNs, deadlineNs)));
    }

    @Test
    void latenessWorksAcrossTheClocksWrapAround() {
        long acceptArrivalNs = Long.MAX_VALUE - 100 * MS;
        long arrivalNs = acceptArrivalNs + 1_001 * MS;
        assertEquals(MS, Lateness.of(arrivalNs, acceptArrivalNs, 1_000 * MS));
    }

    @Test
    void percentilesReadAcrossEarlyAndLateFragments() {
        Lateness lateness = new Lateness();
        for (int i = 1; i <= 98; i++) {
            lateness.record(-i * MS);
        }
        lateness.record(5 * MS);
        lateness.record(20 * MS);

        assertEquals(100, lateness.count());
        assertEquals(2, lateness.lateCount());
        assertEquals(-98 * MS, lateness.minNs());
        assertEquals(20 * MS, lateness.maxNs());
        assertEquals(-98, lateness.percentileNs(1) / MS, 1);
        assertEquals(-49, lateness.percentileNs(50) / MS, 1);
        assertEquals(-1, lateness.percentileNs(98) / MS, 1);
        assertEquals(5, lateness.percentileNs(99) / MS, 1);
        assertEquals(20, lateness.percentileNs(100) / MS, 1);
    }

    @Test
    void withNoFragmentEveryFigureIsZero() {
        Lateness lateness = new Lateness();
        assertEquals(0, lateness.count());
        assertEquals(0, lateness.percentileNs(99));
        assertEquals(0, lateness.maxNs());
    }
}

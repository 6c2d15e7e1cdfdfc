package io.rondo.benchmarks.preset.accuracy;

import io.rondo.scheduler.admission.DiskDemand;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamSetTest {

    private static final long ROUND_NS = 1_000_000_000L;

    @Test
    void cbrStreamsReadTheirBitRateEveryRound() {
        StreamSet set = new StreamSet(new Table1Row(MixType.C, 250, 0, 0, 0, -1), ROUND_NS, 10, 1);

        assertEquals(250_000, set.fragmentBytes(3, 7));
        assertEquals(DiskDemand.constant(250_000), set.demand(5));
    }

    /** The H ladder's mean is exactly the row's average, over every block of ten streams. */
    @Test
    void heterogeneousStreamsAverageTheRowsBitRateOverEachBlock() {
        assertEquals(1.0, Arrays.stream(StreamSet.H_MULTIPLIERS).average().orElseThrow(), 1e-12);
        StreamSet set = new StreamSet(new Table1Row(MixType.H, 1000, 0, 0, 0, -1), ROUND_NS, 5, 3);

        assertEquals(1000, set.averageKBps(20, ROUND_NS), 1e-9);
        long smallest = Long.MAX_VALUE;
        long largest = 0;
        for (int stream = 0; stream < 10; stream++) {
            smallest = Math.min(smallest, set.fragmentBytes(stream, 0));
            largest = Math.max(largest, set.fragmentBytes(stream, 0));
            assertEquals(0, set.demand(stream).sdBytesPerRound(), "each stream is CBR");
        }
        assertEquals(100_000, smallest);
        assertEquals(3_400_000, largest);
    }

    /** Stream i is the same however many streams were asked for first: N + 1 streams are N and one more. */
    @Test
    void vbrStreamsAreTheSameWhateverWasAskedBefore() {
        Table1Row row = new Table1Row(MixType.V, 1000, 0, 0, 0, -1);
        StreamSet first = new StreamSet(row, ROUND_NS, 2000, 9);
        StreamSet second = new StreamSet(row, ROUND_NS, 2000, 9);
        long fourth = first.fragmentBytes(4, 100);
        second.fragmentBytes(0, 0);

        assertEquals(fourth, second.fragmentBytes(4, 100));
        DiskDemand demand = first.demand(4);
        assertEquals(1_000_000, demand.averageBytesPerRound(), 20_000);
        assertEquals(StreamSet.VBR_CV * 1_000_000, demand.sdBytesPerRound(), 20_000);
        assertTrue(demand.peakBytesPerRound() > 1_600_000, "2000 Gamma fragments reach past mean + 2.4 sd");
    }
}

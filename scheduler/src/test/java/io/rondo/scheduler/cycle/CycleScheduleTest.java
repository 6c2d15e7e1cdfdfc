package io.rondo.scheduler.cycle;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reads of papers/003 Figure 1 and of every change of a schedule: what each cycle reads, never a dry buffer. */
class CycleScheduleTest {

    private static final long MS = 1_000_000;
    private static final long QUANTUM = 100 * MS;
    private static final long T = 1_000 * MS;

    private static CycleSchedule twoStreams() {
        return CycleSchedule.start(T, QUANTUM).withStream(1, 16_000).withStream(2, 64_000);
    }

    /** A stream read on its own reads one cycle's data every cycle, from the cycle it joins. */
    @Test
    void anUncombinedStreamReadsOneCycleEveryCycle() {
        CycleSchedule schedule = twoStreams();
        for (int i = 0; i < 4; i++) {
            assertEquals(T, schedule.ioNs(1));
            assertEquals(16_000, schedule.ioBytes(1));
            assertEquals(64_000, schedule.ioBytes(2));
            assertEquals(1, schedule.periodCycles(1));
            schedule = schedule.next();
        }
        assertEquals(2 * 16_000 + 2 * 64_000, schedule.reservedBytes(), "double buffering: a cycle held, a cycle read");
    }

    /** Figure 1: B reads twice its data when the pair forms, C its usual; then C reads twice, then B, in turn. */
    @Test
    void combiningAlternatesTheTwoStreamsWithOneExtraReadWhenThePairForms() {
        CycleSchedule schedule = twoStreams().next().combineLowestRates();

        assertEquals(List.of(new Read(1, 2 * T, 32_000), new Read(2, T, 64_000)), schedule.reads(),
            "the transitory extra read: B two cycles, C one");
        assertEquals(2, schedule.periodCycles(1));
        assertEquals(2, schedule.combinedCount());
        schedule = schedule.next();
        assertEquals(List.of(new Read(2, 2 * T, 128_000)), schedule.reads());
        schedule = schedule.next();
        assertEquals(List.of(new Read(1, 2 * T, 32_000)), schedule.reads());
        assertTrue(schedule.readsIn(2, schedule.cycle() + 1));
        assertFalse(schedule.readsIn(2, schedule.cycle() + 2));
        assertEquals(3 * 16_000 + 2 * 64_000, schedule.reservedBytes(),
            "the reader holds one cycle and reads two, its partner holds two");
    }

    /** A split reads the stream whose turn it is one cycle; the other skips a cycle on what it holds. */
    @Test
    void splittingFreesTheSurplusWithoutAnExtraRead() {
        CycleSchedule schedule = twoStreams().combineLowestRates().next().next().splitHighestRate();

        assertEquals(0, schedule.combinedCount());
        assertEquals(List.of(new Read(1, T, 16_000)), schedule.reads(), "stream 2 still holds two cycles");
        schedule = schedule.next();
        assertEquals(List.of(new Read(1, T, 16_000), new Read(2, T, 64_000)), schedule.reads());
    }

    /** Removing one of a pair leaves the other on its own, read before what it holds runs out. */
    @Test
    void removingOneOfAPairLeavesTheOtherUncombinedAndSafe() {
        CycleSchedule pair = twoStreams().combineLowestRates().next();
        assertEquals(List.of(new Read(2, T, 64_000)), pair.withoutStream(1).reads(), "its turn: one cycle now");

        CycleSchedule schedule = pair.next().withoutStream(1);
        assertEquals(1, schedule.uncombinedCount());
        assertEquals(List.of(), schedule.reads(), "it holds two cycles: nothing to read");
        assertEquals(List.of(new Read(2, T, 64_000)), schedule.next().reads());
        assertEquals(schedule, schedule.withoutStream(99));
    }

    /** Doubling: the pairs keep their IOs two more cycles, the first reader reads one more cycle, then 2T each. */
    @Test
    void doublingAddsNoIoAndTakesEffectTwoCyclesOn() {
        CycleSchedule schedule = twoStreams().combineLowestRates().next().next().doubled();

        assertTrue(schedule.changePending());
        assertEquals(T, schedule.cycleNs());
        assertEquals(2 * T, schedule.cycleNs(schedule.cycle() + 2));
        assertEquals(List.of(new Read(1, 3 * T, 48_000)), schedule.reads(), "its next read comes 1 + 2 cycles on");
        schedule = schedule.next();
        assertEquals(List.of(new Read(2, 2 * T, 128_000)), schedule.reads());
        schedule = schedule.next();
        assertFalse(schedule.changePending());
        assertEquals(2 * T, schedule.cycleNs());
        assertEquals(0, schedule.combinedCount());
        assertEquals(List.of(new Read(1, 2 * T, 32_000), new Read(2, 2 * T, 128_000)), schedule.reads());
        assertThrows(IllegalStateException.class, () -> twoStreams().doubled().combineLowestRates());
    }

    /** Shortening takes effect at once; the first shorter cycle reads less, so the buffers shrink to the new cycle. */
    @Test
    void shorteningReadsLessOnceAndThenTheShorterCycle() {
        CycleSchedule schedule = twoStreams().next();
        long shorter = schedule.shortenedCycleNs(0.1);
        assertEquals(900 * MS, shorter);
        schedule = schedule.withCycleNs(shorter);

        assertEquals(List.of(new Read(1, 800 * MS, 12_800), new Read(2, 800 * MS, 51_200)), schedule.reads());
        schedule = schedule.next();
        assertEquals(900 * MS, schedule.ioNs(1));
        assertEquals(2 * 14_400 + 2 * 57_600, schedule.reservedBytes());
        assertEquals(QUANTUM, CycleSchedule.start(QUANTUM, QUANTUM).shortenedCycleNs(0.1), "never below a quantum");
        assertEquals(1900 * MS, CycleSchedule.start(2 * T, QUANTUM).shortenedCycleNs(0.04), "at least one quantum");
    }

    /** Changes that make no sense are refused with the reason. */
    @Test
    void refusesWhatItCannotDo() {
        CycleSchedule schedule = twoStreams();
        assertThrows(IllegalArgumentException.class, () -> schedule.withStream(1, 1_000));
        assertThrows(IllegalArgumentException.class, () -> schedule.withStream(3, 0));
        assertThrows(IllegalArgumentException.class, () -> schedule.ioNs(7));
        assertThrows(IllegalArgumentException.class, () -> schedule.withCycleNs(T + 1));
        assertThrows(IllegalArgumentException.class, () -> CycleSchedule.start(150 * MS, QUANTUM));
        assertThrows(IllegalStateException.class, () -> schedule.combineLowestRates().combineLowestRates());
        assertThrows(IllegalStateException.class, schedule::splitHighestRate);
        assertThrows(IllegalArgumentException.class, () -> schedule.next().readsIn(1, 0));
    }

    /**
     * Any sequence of changes, checked against playback: every stream plays from the end of its
     * first cycle, an IO may complete as late as its cycle's end, and the data read before a
     * cycle must cover the playback to that cycle's end. Each IO is whole quanta.
     */
    @Test
    void noSequenceOfChangesLetsABufferRunDry() {
        SplittableRandom random = new SplittableRandom(24);
        for (int run = 0; run < 100; run++) {
            CycleSchedule schedule = CycleSchedule.start(T, QUANTUM);
            Map<Long, long[]> playback = new HashMap<>();
            long nowNs = 0;
            long nextId = 0;
            for (int c = 0; c < 200; c++) {
                schedule = change(schedule, random, nextId);
                if (schedule.stream(nextId).isPresent()) {
                    playback.put(nextId++, new long[] {nowNs + schedule.cycleNs(), 0});
                }
                playback.keySet().retainAll(schedule.streams().stream().map(ScheduledStream::id).toList());
                long endNs = nowNs + schedule.cycleNs();
                for (Map.Entry<Long, long[]> stream : playback.entrySet()) {
                    long[] state = stream.getValue();
                    long playedNs = Math.max(0, endNs - state[0]);
                    assertTrue(state[1] >= playedNs, "stream " + stream.getKey() + " ran dry in " + schedule);
                }
                for (Read read : schedule.reads()) {
                    assertEquals(0, read.ioNs() % QUANTUM);
                    playback.get(read.streamId())[1] += read.ioNs();
                }
                nowNs = endNs;
                schedule = schedule.next();
            }
        }
    }

    private static CycleSchedule change(CycleSchedule schedule, SplittableRandom random, long nextId) {
        int choice = random.nextInt(8);
        if (choice <= 1 || schedule.size() < 2) {
            return schedule.withStream(nextId, 1_000 + random.nextInt(200_000));
        }
        if (choice == 2) {
            return schedule.withoutStream(schedule.streams().get(random.nextInt(schedule.size())).id());
        }
        if (schedule.changePending()) {
            return schedule;
        }
        return switch (choice) {
            case 3, 4 -> schedule.uncombinedCount() >= 2 ? schedule.combineLowestRates() : schedule;
            case 5 -> schedule.combinedCount() > 0 ? schedule.splitHighestRate() : schedule;
            case 6 -> schedule.cycleNs() > 4 * T ? schedule : random.nextBoolean() ? schedule.doubled()
                : schedule.withCycleNs(schedule.cycleNs() + QUANTUM * (1 + random.nextInt(10)));
            default -> schedule.withCycleNs(schedule.shortenedCycleNs(0.1 + random.nextDouble() * 0.4));
        };
    }
}

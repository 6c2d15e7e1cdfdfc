package io.rondo.scheduler.cycle;

import io.rondo.scheduler.cycle.Step.Operation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** papers/003 Figure 2 driven cycle by cycle: what it does to low- and high-rate loads, and when it does nothing. */
class StreamCombinationTest {

    private static final long MS = 1_000_000;
    private static final long QUANTUM = 100 * MS;
    private static final CombinationSettings SETTINGS = CombinationSettings.defaults(QUANTUM)
        .withCycleBounds(QUANTUM, 8_000 * MS);

    /** The papers/003 disk, 10 ms a random access and 50 MB/s, with 128 MiB of buffer memory. */
    private static final Utilization PAPER = charged(10 * MS, 50e6, 128L << 20);

    private static Utilization charged(long accessNs, double bytesPerSecond, long memoryBytes) {
        return Utilization.charged(bytes -> accessNs + (long) (bytes * 1e9 / bytesPerSecond), memoryBytes);
    }

    private static CycleSchedule streams(long cycleNs, int count, long bytesPerSecond) {
        CycleSchedule schedule = CycleSchedule.start(cycleNs, QUANTUM);
        for (int i = 0; i < count; i++) {
            schedule = schedule.withStream(i, bytesPerSecond + i);
        }
        return schedule;
    }

    /** Runs {@code cycles} cycles from {@code schedule}, each checked first; the operations, one per cycle. */
    private static List<Step> run(StreamCombination combination, CycleSchedule schedule, int cycles) {
        List<Step> steps = new ArrayList<>();
        CycleSchedule current = schedule;
        for (int i = 0; i < cycles; i++) {
            Step step = combination.check(current);
            steps.add(step);
            current = step.schedule().next();
        }
        return steps;
    }

    private static List<Operation> operations(List<Step> steps) {
        return steps.stream().map(Step::operation).toList();
    }

    /**
     * 40 streams of 128 kbit/s in a 500 ms cycle spend it on access times (u_t 0.81, u_m ~0): the
     * lowest-rate streams combine, one pair a cycle, and once all are paired the cycle doubles.
     */
    @Test
    void aLowRateLoadCombinesOnePairACycleThenDoubles() {
        StreamCombination combination = new StreamCombination(SETTINGS, PAPER);
        List<Step> steps = run(combination, streams(500 * MS, 40, 16_000), 24);

        assertEquals(Operation.COMBINE, steps.get(0).operation());
        assertEquals(0, steps.get(0).first(), "the lowest rate reads two cycles' data first");
        assertEquals(1, steps.get(0).second());
        assertEquals(List.of(2L, 3L), List.of(steps.get(1).first(), steps.get(1).second()));
        assertEquals(List.of(Operation.COMBINE), operations(steps.subList(0, 20)).stream().distinct().toList(),
            "the SFLAG keeps one combination a cycle going: " + operations(steps));
        assertEquals(Operation.DOUBLE, steps.get(20).operation());
        assertEquals(List.of(Operation.NONE, Operation.NONE), operations(steps.subList(21, 23)),
            "nothing changes while the doubled cycle waits");
        assertEquals(1_000 * MS, steps.get(22).schedule().next().cycleNs());
        assertEquals(Operation.NONE, steps.get(23).operation(), "at 1 s, u_t 0.41 is under its threshold");
        assertEquals(0.41, steps.get(23).cycle(), 0.01);
        assertTrue(steps.get(0).cycle() > 0.81, "the first pair's cycle keeps its 40 IOs, one larger: " + steps.get(0));
        assertTrue(steps.get(19).cycle() < 0.45, "20 pairs, 20 IOs a cycle (21 as the last forms): " + steps.get(19));
    }

    /**
     * High-rate streams that nearly fill the memory (u_m 0.9, u_t low): the highest-rate pairs
     * split first, one a cycle, then the cycle shortens by UNIT a cycle at a time.
     */
    @Test
    void aHighRateLoadSplitsThenShortens() {
        CycleSchedule schedule = streams(2_000 * MS, 20, 128_000);
        for (int i = 0; i < 3; i++) {
            schedule = schedule.combineLowestRates();
        }
        long peak = schedule.horizon().stream().mapToLong(CycleSchedule::reservedBytes).max().orElseThrow();
        Utilization utilization = charged(10 * MS, 50e6, (long) (peak / 0.9));
        StreamCombination combination = new StreamCombination(SETTINGS, utilization);

        List<Step> steps = run(combination, schedule, 6);

        assertEquals(List.of(Operation.SPLIT, Operation.SPLIT, Operation.SPLIT, Operation.SHORTEN, Operation.SHORTEN,
            Operation.SHORTEN), operations(steps));
        assertEquals(List.of(4L, 5L), List.of(steps.get(0).first(), steps.get(0).second()), "the highest-rate pair");
        assertEquals(1_800 * MS, steps.get(3).schedule().cycleNs());
        assertEquals(1_600 * MS, steps.get(4).schedule().cycleNs());
        assertTrue(steps.get(5).memory() < steps.get(0).memory(), steps.toString());
    }

    /** Below both thresholds, or with the two utilizations within u_dT, nothing is done. */
    @Test
    void thresholdsAreRespected() {
        StreamCombination combination = new StreamCombination(SETTINGS, PAPER);
        assertEquals(List.of(Operation.NONE), operations(run(combination, streams(500 * MS, 20, 16_000), 10))
            .stream().distinct().toList(), "u_t 0.41 is under u_tT 0.5");

        Utilization balanced = new Utilization() {
            @Override
            public double memory(CycleSchedule schedule) {
                return 0.8;
            }

            @Override
            public double cycle(CycleSchedule schedule) {
                return 0.85;
            }
        };
        StreamCombination withinDifference = new StreamCombination(SETTINGS, balanced);
        assertEquals(Operation.NONE, withinDifference.check(streams(500 * MS, 40, 16_000)).operation(),
            "|u_m - u_t| = 0.05 is within u_dT 0.1: the text's direction, not Figure 2's");
        assertFalse(withinDifference.rescheduling());
    }

    /** Turned off, it never changes a schedule, however unbalanced. */
    @Test
    void disabledDoesNothing() {
        StreamCombination combination = new StreamCombination(SETTINGS.withEnabled(false), PAPER);
        List<Step> steps = run(combination, streams(500 * MS, 40, 16_000), 30);
        assertEquals(List.of(Operation.NONE), operations(steps).stream().distinct().toList());
        assertEquals(500 * MS, steps.get(29).schedule().cycleNs());
    }

    /** A combination whose extra read would overrun the cycle is not made: a change must keep the schedule fitting. */
    @Test
    void aChangeThatWouldNotFitIsNotMade() {
        Utilization slowDisk = charged(MS, 1e6, 1L << 30);
        CycleSchedule schedule = streams(1_000 * MS, 9, 100_000);
        assertEquals(0.909, slowDisk.cycle(schedule), 0.001);
        StreamCombination combination = new StreamCombination(SETTINGS, slowDisk);

        assertEquals(Operation.NONE, combination.check(schedule).operation());
        assertTrue(slowDisk.fits(schedule));
        assertFalse(slowDisk.fits(schedule.combineLowestRates()), "the extra 100 ms transfer overruns the cycle");
    }

    /** The cycle never leaves the settings' bounds: no doubling past the longest, no shortening past the shortest. */
    @Test
    void theCycleStaysWithinItsBounds() {
        CombinationSettings tight = SETTINGS.withCycleBounds(500 * MS, 500 * MS);
        StreamCombination combination = new StreamCombination(tight, PAPER);
        List<Step> steps = run(combination, streams(500 * MS, 40, 16_000), 25);
        assertFalse(operations(steps).contains(Operation.DOUBLE));
        assertEquals(500 * MS, steps.get(24).schedule().cycleNs());
        assertThrows(IllegalArgumentException.class, () -> tight.checkCycle(600 * MS));
        assertThrows(IllegalArgumentException.class, () -> CombinationSettings.defaults(QUANTUM)
            .withThresholds(0, 0.5, 0.1));
        assertThrows(IllegalArgumentException.class, () -> CombinationSettings.defaults(QUANTUM)
            .withCycleBounds(QUANTUM, QUANTUM / 2));
    }
}

package io.rondo.scheduler.sim;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulation testbed of papers/001 Section 5.1: one seed one result, and how a growing D-queue is told apart. */
class SimulatorTest {

    private static final DiskProfile DISK = DiskProfile.paperDisk();

    /** One workload, seed included, gives one result bit for bit; another seed gives another. */
    @Test
    void aSeedDeterminesTheResult() {
        Workload workload = Workload.paper(3, 90).withRounds(40, 5);

        String first = Simulator.run(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, DISK, workload).csvRow();
        String again = Simulator.run(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, DISK, workload).csvRow();
        String otherSeed = Simulator.run(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, DISK, workload.withSeed(2)).csvRow();

        assertEquals(first, again);
        assertNotEquals(first, otherSeed);
        assertTrue(first.startsWith("mixed-incremental-scan,worst-case,3,90,"), first);
        assertEquals(SimulationResult.CSV_HEADER.split(",").length, first.split(",", -1).length);
    }

    /** Without D-requests there is nothing to measure but the C-share; the mean is an empty CSV cell. */
    @Test
    void withoutDRequestsOnlyTheCRequestsAreRead() {
        SimulationResult result = Simulator.run(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, DISK,
            Workload.paper(3, 0).withRounds(20, 2));

        assertEquals(0, result.completed());
        assertEquals(0, result.glitches());
        assertFalse(result.saturated());
        assertTrue(Double.isNaN(result.meanMs()));
        assertEquals(result.utilization(), result.continuousShare(), 1e-12);
        assertEquals(0.3, result.continuousShare(), 0.03, "three 800 KB fragments take about 30% of a round");
        assertTrue(result.csvRow().contains(",0,,,,,0,0,"), result.csvRow());
    }

    /** Past the backlog limit a run stops early and reports the point saturated. */
    @Test
    void aRunawayQueueStopsTheRunAndSaturates() {
        SimulationResult result = Simulator.run(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, DISK,
            Workload.paper(7, 200_000).withRounds(300, 0));

        assertTrue(result.saturated());
    }

    private static long[] linear(double start, double perRound) {
        long[] backlog = new long[100];
        for (int i = 0; i < backlog.length; i++) {
            backlog[i] = Math.round(start + perRound * i);
        }
        return backlog;
    }

    /** A stable queue's backlog has no trend, whatever its level or its ups and downs. */
    @Test
    void aFlatBacklogIsNotGrowing() {
        long[] flat = new long[100];
        Arrays.fill(flat, 40);
        long[] high = new long[100];
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < high.length; i++) {
            high[i] = 10_000 + random.nextInt(2_000);
        }

        assertFalse(Simulator.growing(flat, 10));
        assertFalse(Simulator.growing(high, 300), "a high but steady backlog");
        assertFalse(Simulator.growing(linear(5_000, -20), 300), "a draining backlog");
    }

    /**
     * The threshold is half a percent of a round's arrivals: with 300 arrivals a round, a backlog
     * climbing 2 a round is growing, one climbing 1 a round is not (1.5 is the line).
     */
    @Test
    void aBacklogClimbingFasterThanHalfAPercentOfTheArrivalsIsGrowing() {
        assertTrue(Simulator.growing(linear(0, 5), 1));
        assertTrue(Simulator.growing(linear(1_000, 2), 300));
        assertFalse(Simulator.growing(linear(1_000, 1), 300));
        assertTrue(Simulator.growing(linear(0, 0.01), 0), "below one arrival a round, one counts");
    }

    /** Fewer than 8 measured rounds tell nothing, however steep. */
    @Test
    void aShortRunIsNotGrowing() {
        assertFalse(Simulator.growing(new long[] {0, 100, 200, 300, 400, 500, 600}, 1));
        assertTrue(Simulator.growing(new long[] {0, 100, 200, 300, 400, 500, 600, 700}, 1));
    }

    @Test
    void aWorkloadRefusesNonsense() {
        Workload paper = Workload.paper(3, 30);

        assertThrows(IllegalArgumentException.class, () -> paper.withDisks(0));
        assertThrows(IllegalArgumentException.class, () -> paper.withContinuousPerDisk(-1));
        assertThrows(IllegalArgumentException.class, () -> paper.withLambda(-1));
        assertThrows(IllegalArgumentException.class, () -> paper.withLambda(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> paper.withLambda(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> paper.withRounds(0, 20));
        assertThrows(IllegalArgumentException.class, () -> paper.withRounds(10, -1));
    }
}

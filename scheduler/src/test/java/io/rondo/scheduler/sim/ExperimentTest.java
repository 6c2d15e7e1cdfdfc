package io.rondo.scheduler.sim;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sweeps of simulated points: arrival-rate ranges, the named experiments of papers/001 Section 5, and result order. */
class ExperimentTest {

    /** Both ends are included, and decimal steps land on round numbers. */
    @Test
    void rangeIncludesBothEnds() {
        double[] fig9 = Experiment.range(30, 330, 30);

        assertEquals(11, fig9.length);
        assertEquals(30, fig9[0]);
        assertEquals(330, fig9[10]);
        assertArrayEquals(new double[] {0.1, 0.2, 0.3}, Experiment.range(0.1, 0.3, 0.1));
        assertArrayEquals(new double[] {5}, Experiment.range(5, 5, 1));
        assertArrayEquals(new double[] {0, 0.3, 0.6, 0.9}, Experiment.range(0, 1, 0.3), "stops before passing the end");
    }

    @Test
    void rangeRefusesAnEmptyOrEndlessSweep() {
        IllegalArgumentException backwards = assertThrows(IllegalArgumentException.class,
            () -> Experiment.range(5, 1, 1));
        assertEquals("a range needs from <= to and a positive step, was 5.0:1.0:1.0", backwards.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Experiment.range(1, 5, 0));
        assertThrows(IllegalArgumentException.class, () -> Experiment.range(1, 5, -1));
        assertThrows(IllegalArgumentException.class, () -> Experiment.range(1, 5, Double.NaN));
    }

    /** Figures 9 to 11: four curves each, panels N = 3 and N = 7. */
    @Test
    void namedExperimentsReproduceTheFigures() {
        assertEquals(List.of("fig9", "fig10", "fig11"), Experiment.NAMES);
        assertEquals(4 * (11 + 13), Experiment.named("fig9").pointCount());
        assertEquals(4 * (13 + 14), Experiment.named("FIG10").pointCount());
        Experiment fig11 = Experiment.named("fig11");
        assertEquals(4 * (13 + 14), fig11.pointCount());
        assertEquals(List.of("mixed-incremental-scan", "mixed-incremental-scan (omniscient)",
            "disjoint-incremental-scan", "disjoint-incremental-scan (omniscient)"),
            fig11.series().stream().map(Experiment.Series::label).toList());
        assertEquals(List.of(3, 7), fig11.panels().stream().map(Experiment.Panel::n).toList());
        assertEquals(Workload.PAPER_SMALL_DISCRETE, fig11.base().discreteSize());
        assertEquals(SchedulingPolicy.PRESETS,
            Experiment.fig9().series().stream().map(Experiment.Series::policy).toList());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Experiment.named("fig12"));
        assertTrue(e.getMessage().contains("fig9, fig10, fig11"), e.getMessage());
    }

    @Test
    void anExperimentNeedsSeriesAndPanelsAndKeepsItsRates() {
        double[] rates = {10, 20};
        Experiment.Panel panel = new Experiment.Panel(3, rates);
        rates[0] = 99;
        panel.lambdas()[1] = 99;

        assertArrayEquals(new double[] {10, 20}, panel.lambdas());
        assertThrows(IllegalArgumentException.class, () -> new Experiment("x", "x", List.of(), List.of(panel),
            Workload.paper(3, 0)));
    }

    /** Points finish in any order on the pool, but come back panel by panel, series by series, rate by rate. */
    @Test
    void runReturnsResultsInSweepOrder() {
        Workload base = Workload.paper(3, 0).withRounds(4, 1).withDisks(1);
        Experiment experiment = new Experiment("tiny", "tiny", List.of(
            new Experiment.Series(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, false),
            new Experiment.Series(SchedulingPolicy.DISJOINT_INCREMENTAL_FCFS, true)),
            List.of(new Experiment.Panel(3, new double[] {30, 10}), new Experiment.Panel(7, new double[] {5})), base);
        AtomicInteger progress = new AtomicInteger();

        List<SimulationResult> results = experiment.run(DiskProfile.paperDisk(), 2, progress::addAndGet);

        assertEquals(6, progress.get());
        assertEquals(List.of(
                "mixed-incremental-scan worst-case 3 30.0", "mixed-incremental-scan worst-case 3 10.0",
                "disjoint-incremental-fcfs omniscient 3 30.0", "disjoint-incremental-fcfs omniscient 3 10.0",
                "mixed-incremental-scan worst-case 7 5.0", "disjoint-incremental-fcfs omniscient 7 5.0"),
            results.stream().map(r -> r.policy() + " " + r.rotation() + " " + r.n() + " " + r.lambda()).toList());
    }
}

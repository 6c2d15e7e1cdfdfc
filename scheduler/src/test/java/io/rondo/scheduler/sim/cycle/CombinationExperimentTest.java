package io.rondo.scheduler.sim.cycle;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The papers/003 figures, each run for the first 400 s of the paper's 20 minutes (long enough for
 * the fixed cycles to hit their bottleneck): what a reader of the paper checks in each.
 */
class CombinationExperimentTest {

    private static final long SECOND = 1_000_000_000L;
    private static final CycleWorkload BRIEF = CycleWorkload.paper().withRunNs(400 * SECOND);

    private static List<CycleRun> run(String name) {
        List<CycleRun> runs = CombinationExperiment.named(name, BRIEF).run(done -> { });
        for (CycleRun run : runs) {
            assertEquals(0, run.glitches(), "no buffer runs dry: " + run.csvRow());
            assertEquals(0, run.lateIos(), "every IO within its cycle: " + run.csvRow());
            assertTrue(run.ios() > 0, run.csvRow());
        }
        return runs;
    }

    /** Figure 3: the 500 ms cycle runs into the disk; combination combines early and admits half as many again. */
    @Test
    void fig3CombinationAdmitsHalfAsManyAgainAsTheFixed500msCycle() {
        List<CycleRun> runs = run("fig3");
        CycleRun fixed = runs.get(0);
        CycleRun combined = runs.get(1);

        assertEquals("fixed 500 ms", fixed.label());
        assertEquals(500_000_000L, fixed.finalCycleNs(), "a fixed cycle stays fixed");
        assertEquals(0, fixed.combines() + fixed.splits() + fixed.doubles() + fixed.shortens());
        assertTrue(combined.peakStreams() >= 1.5 * fixed.peakStreams(), fixed.csvRow() + "\n" + combined.csvRow());
        assertTrue(combined.combines() > 0 && combined.doubles() > 0, combined.csvRow());
        long firstCombination = combined.samples().stream().filter(s -> s.combined() > 0).findFirst().orElseThrow()
            .timeNs();
        long fixedFull = fixed.samples().stream().filter(s -> s.streams() == fixed.peakStreams()).findFirst()
            .orElseThrow().timeNs();
        assertTrue(firstCombination < fixedFull, "combination starts before the fixed cycle is full (proactive): "
            + firstCombination / SECOND + " s against " + fixedFull / SECOND + " s");
    }

    /** Figure 4: the 5 s cycle runs out of memory; combination shortens its cycle and admits about twice as many. */
    @Test
    void fig4CombinationShortensTheCycleAndAdmitsNearlyTwiceTheFixed5sCycle() {
        List<CycleRun> runs = run("fig4");
        CycleRun fixed = runs.get(0);
        CycleRun combined = runs.get(1);

        assertTrue(fixed.peakMemoryBytes() > 0.95 * BRIEF.memoryBytes(), "the fixed 5 s cycle is memory-bound: "
            + fixed.csvRow());
        assertTrue(combined.peakStreams() >= 1.9 * fixed.peakStreams(), fixed.csvRow() + "\n" + combined.csvRow());
        assertTrue(combined.shortens() > 0 && combined.finalCycleNs() < 5 * SECOND, combined.csvRow());
    }

    /** Figure 5a: whatever the initial cycle, combination comes within 5% of the best fixed cycle. */
    @Test
    void fig5aCombinationIsNearTheBestFixedCycleWhateverItStartsFrom() {
        List<CycleRun> runs = run("fig5a");
        assertEquals(20, runs.size());
        int bestFixed = runs.stream().filter(r -> r.scheduler().equals("fixed")).mapToInt(CycleRun::peakStreams)
            .max().orElseThrow();
        CycleRun worstFixed = runs.stream().filter(r -> r.scheduler().equals("fixed"))
            .min((a, b) -> Integer.compare(a.peakStreams(), b.peakStreams())).orElseThrow();
        assertTrue(worstFixed.peakStreams() < 0.6 * bestFixed, "the fixed cycle matters: " + worstFixed.csvRow());
        for (CycleRun run : runs) {
            if (run.scheduler().equals("combination")) {
                assertTrue(run.peakStreams() >= 0.95 * bestFixed, run.csvRow() + " against " + bestFixed);
            }
        }
    }

    /** Figure 5b: six workloads; combination never does worse than a cycle chosen knowing the mean rate. */
    @Test
    void fig5bCombinationNeverDoesWorseThanAKnowingFixedCycle() {
        List<CycleRun> runs = run("fig5b");
        assertEquals(12, runs.size());
        for (int i = 0; i < runs.size(); i += 2) {
            CycleRun fixed = runs.get(i);
            CycleRun combined = runs.get(i + 1);
            assertEquals(fixed.initialCycleNs(), combined.initialCycleNs(), "both start from the same cycle");
            assertTrue(combined.peakStreams() >= fixed.peakStreams(), fixed.csvRow() + "\n" + combined.csvRow());
        }
        assertTrue(runs.get(8).peakStreams() > runs.get(6).peakStreams(),
            "low rates (#5) fit more streams than high ones (#4)");
    }

    /** One seed gives one run, sample for sample; another seed other arrivals. */
    @Test
    void aSeedDeterminesTheRun() {
        CycleWorkload brief = BRIEF.withRunNs(120 * SECOND);
        CycleRun first = CycleSimulation.run(brief, SECOND, CycleSimulation.settings(brief, true));
        CycleRun again = CycleSimulation.run(brief, SECOND, CycleSimulation.settings(brief, true));
        CycleRun other = CycleSimulation.run(brief.withSeed(2), SECOND, CycleSimulation.settings(brief, true));

        assertEquals(first, again);
        assertTrue(!first.samples().equals(other.samples()), "another seed, other arrivals");
        assertThrows(IllegalArgumentException.class, () -> CycleSimulation.run(brief, 150_000_000L,
            CycleSimulation.settings(brief, true)), "a cycle off the quantum");
    }

    /** The cycle a knowing operator picks meets the disk's and the memory's limits: about 1.9 s for the paper. */
    @Test
    void thePriorKnowledgeCycleBalancesDiskAndMemory() {
        assertEquals(1_900_000_000L, CombinationExperiment.priorKnowledgeCycleNs(CycleWorkload.paper()));
        assertEquals(3_800_000_000L, CombinationExperiment.priorKnowledgeCycleNs(
            CycleWorkload.paper(CycleWorkload.KILOBITS)));
        assertThrows(IllegalArgumentException.class, () -> CombinationExperiment.named("fig6", BRIEF));
        assertThrows(IllegalArgumentException.class, () -> CycleWorkload.paper(1_024));
    }
}

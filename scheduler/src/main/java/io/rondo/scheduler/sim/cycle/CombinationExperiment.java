package io.rondo.scheduler.sim.cycle;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The runs of one papers/003 figure: each a workload, an initial cycle and a scheduler, fixed or
 * stream combination, which starts from the same cycle and admits by the same rule.
 *
 * @param name  the short name ({@code fig3})
 * @param title what the chart is titled
 * @param runs  the runs, in the order of the table
 */
public record CombinationExperiment(String name, String title, List<Run> runs) {

    /** The named experiments. */
    public static final List<String> NAMES = List.of("fig3", "fig4", "fig5a", "fig5b");

    private static final long MS = 1_000_000;
    private static final long SECOND = 1_000 * MS;

    /** One run to make: a workload from an initial cycle, with or without combination. */
    public record Run(CycleWorkload workload, long initialCycleNs, boolean combine) {
    }

    public CombinationExperiment {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("an experiment needs at least one run");
        }
    }

    /**
     * A named experiment on {@code base}, the paper's workload as the command line shaped it
     * (its rate unit, memory accounting, length and seed).
     *
     * @throws IllegalArgumentException if there is no experiment of that name
     */
    public static CombinationExperiment named(String name, CycleWorkload base) {
        return switch (name) {
            case "fig3" -> new CombinationExperiment("fig3",
                "Stream combination against a fixed 500 ms cycle (papers/003 Figure 3)", pair(base, 500 * MS));
            case "fig4" -> new CombinationExperiment("fig4",
                "Stream combination against a fixed 5 s cycle (papers/003 Figure 4)", pair(base, 5 * SECOND));
            case "fig5a" -> fig5a(base);
            case "fig5b" -> fig5b(base);
            default -> throw new IllegalArgumentException("no stream combination experiment named '" + name
                + "'; there are " + NAMES);
        };
    }

    /** Figure 5a: streams admitted against the initial cycle, 0.5 s to 5 s, fixed and combination. */
    private static CombinationExperiment fig5a(CycleWorkload base) {
        List<Run> runs = new ArrayList<>();
        for (long cycle = 500 * MS; cycle <= 5 * SECOND; cycle += 500 * MS) {
            runs.addAll(pair(base, cycle));
        }
        return new CombinationExperiment("fig5a", "Streams admitted against the initial cycle (papers/003 Figure 5a)",
            runs);
    }

    /**
     * Figure 5b: six workloads, the fixed cycle chosen with prior knowledge of the mean rate
     * ({@link #priorKnowledgeCycleNs}), and combination starting from it.
     */
    private static CombinationExperiment fig5b(CycleWorkload base) {
        List<Run> runs = new ArrayList<>();
        for (CycleWorkload workload : fig5bWorkloads(base)) {
            runs.addAll(pair(workload, priorKnowledgeCycleNs(workload)));
        }
        return new CombinationExperiment("fig5b", "Six workloads (papers/003 Figure 5b)", runs);
    }

    /**
     * The six workloads of Figure 5b, as the paper describes them (it gives no parameters): #1-3
     * uniform rates (the paper's; arrivals twice as fast; rates spread over twice the range), #4
     * favouring high rates, #5 favouring low rates, #6 shifting from low to high rates over the run.
     */
    public static List<CycleWorkload> fig5bWorkloads(CycleWorkload base) {
        RateMix rates = base.rates();
        long min = rates.minBitsPerSecond();
        long max = rates.maxBitsPerSecond();
        return List.of(
            base.withName("#1 uniform"),
            base.withName("#2 uniform arrivals 1-3.5 s").withGaps(base.minGapNs() / 2, base.maxGapNs() / 2),
            base.withName("#3 uniform wider rates").withRates(RateMix.uniform(min / 2, max * 2)),
            base.withName("#4 favouring high").withRates(new RateMix(min, max, 1 / 3.0, 1 / 3.0)),
            base.withName("#5 favouring low").withRates(new RateMix(min, max, 3, 3)),
            base.withName("#6 shifting low to high").withRates(new RateMix(min, max, 3, 1 / 3.0)));
    }

    /**
     * The cycle a fixed-cycle server would be configured with knowing the workload's mean rate:
     * for streams all of that rate, the cycle where the disk's limit and the memory's meet, so
     * the most streams fit. With {@code N} streams of rate {@code r}, access {@code a}, transfer
     * {@code B}, memory {@code M} and {@code k} cycles of data held per stream, the disk takes
     * {@code N (a + r T / B) <= T} and the memory {@code N k r T <= M}; they meet where
     * {@code k r T^2 - (M r / B) T - M a = 0}. Rounded to the quantum.
     */
    public static long priorKnowledgeCycleNs(CycleWorkload workload) {
        double r = workload.rates().meanBytesPerSecond();
        double m = workload.memoryBytes();
        double a = workload.disk().accessNs() / 1e9;
        double k = workload.accounting() == MemoryAccounting.EQUATION_2 ? 1 : 2;
        double b = m * r / workload.disk().bytesPerSecond();
        double seconds = (b + Math.sqrt(b * b + 4 * k * r * m * a)) / (2 * k * r);
        long quanta = Math.max(1, Math.round(seconds * 1e9 / workload.quantumNs()));
        return quanta * workload.quantumNs();
    }

    /** Runs every run, one after the other, telling {@code progress} of each finished. */
    public List<CycleRun> run(IntConsumer progress) {
        List<CycleRun> results = new ArrayList<>(runs.size());
        for (Run run : runs) {
            results.add(CycleSimulation.run(run.workload(), run.initialCycleNs(),
                CycleSimulation.settings(run.workload(), run.combine())));
            progress.accept(1);
        }
        return results;
    }

    private static List<Run> pair(CycleWorkload workload, long initialCycleNs) {
        return List.of(new Run(workload, initialCycleNs, false), new Run(workload, initialCycleNs, true));
    }
}

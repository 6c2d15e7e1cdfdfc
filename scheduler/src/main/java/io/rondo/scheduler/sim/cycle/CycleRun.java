package io.rondo.scheduler.sim.cycle;

import java.util.List;
import java.util.Locale;

/**
 * One simulated run: what a reader of papers/003 Figures 3-5 looks at.
 *
 * @param workload       the workload's name
 * @param scheduler      "fixed" or "combination"
 * @param initialCycleNs the cycle the run started with
 * @param samples        one a cycle: the state at the cycle's start
 * @param arrivals       streams that asked to play
 * @param admitted       streams admitted
 * @param peakStreams    the most streams in service at once: the paper's throughput
 * @param glitches       IOs completed after their stream's data ran out (must be 0)
 * @param lateIos        IOs completed after their cycle's end (must be 0)
 * @param ios            IOs read
 * @param combines       COMBINE operations
 * @param splits         SPLIT operations
 * @param doubles        DOUBLE operations
 * @param shortens       SHORTEN operations
 * @param finalCycleNs   the cycle at the run's end
 * @param peakMemoryBytes the most buffer memory a cycle took, as counted
 */
public record CycleRun(String workload, String scheduler, long initialCycleNs, List<Sample> samples, int arrivals,
                       int admitted, int peakStreams, long glitches, long lateIos, long ios, int combines, int splits,
                       int doubles, int shortens, long finalCycleNs, long peakMemoryBytes) {

    /** The CSV header of {@link #csvRow()}. */
    public static final String CSV_HEADER = "workload,scheduler,initial_cycle_ms,arrivals,admitted,peak_streams,"
        + "glitches,late_ios,ios,combines,splits,doubles,shortens,final_cycle_ms,peak_memory_mib";

    /**
     * The state at a cycle's start.
     *
     * @param timeNs      when the cycle starts
     * @param streams     streams in service
     * @param combined    of which combined
     * @param memoryBytes the buffer memory the cycle takes, as counted
     * @param cycleNs     the cycle's length
     * @param memory      {@code u_m}
     * @param cycle       {@code u_t}
     */
    public record Sample(long timeNs, int streams, int combined, long memoryBytes, long cycleNs, double memory,
                         double cycle) {
    }

    public CycleRun {
        samples = List.copyOf(samples);
    }

    /** The run as one CSV row. */
    public String csvRow() {
        return String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.1f", workload, scheduler,
            initialCycleNs / 1_000_000, arrivals, admitted, peakStreams, glitches, lateIos, ios, combines, splits,
            doubles, shortens, finalCycleNs / 1_000_000, peakMemoryBytes / (double) (1 << 20));
    }

    /** "fixed 500 ms" or "combination from 500 ms". */
    public String label() {
        return scheduler.equals("fixed") ? "fixed " + initialCycleNs / 1_000_000 + " ms"
            : "combination from " + initialCycleNs / 1_000_000 + " ms";
    }
}

package io.rondo.benchmarks.jmh;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * Runs {@link ScheduleRoundBenchmark} and prints its figures beside papers/001 Table 4. Takes
 * JMH's own flags ({@code -f 1 -wi 1 -i 3} ...) to shorten or lengthen the run.
 */
public final class Table4 {

    /** Table 4: milliseconds per round on a 167 MHz UltraSPARC, by {@code N:lambda}. */
    private static final Map<String, Double> PAPER_MS = Map.of(
        "7:30", 0.8, "7:60", 1.3, "7:90", 1.9, "7:100", 2.5, "7:110", 3.5,
        "3:90", 1.0, "3:150", 2.0, "3:250", 6.6, "3:260", 9.0, "3:270", 13.5);

    private Table4() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
            .parent(new CommandLineOptions(args))
            .include(ScheduleRoundBenchmark.class.getName())
            .build()).run();
        System.out.println();
        System.out.println("Scheduling one round of one disk, mixed-incremental-scan (papers/001 Table 4)");
        System.out.printf(Locale.ROOT, "%5s %7s %16s %14s %12s%n", "N", "lambda", "rondo us/round", "paper ms/round",
            "target 50us");
        for (RunResult result : results) {
            String load = result.getParams().getParam("load");
            String[] parts = load.split(":");
            double micros = result.getPrimaryResult().getScore();
            double error = result.getPrimaryResult().getScoreError();
            System.out.printf(Locale.ROOT, "%5s %7s %9.1f +- %-4.1f %14.1f %12s%n", parts[0], parts[1], micros,
                Double.isNaN(error) ? 0 : error, PAPER_MS.getOrDefault(load, Double.NaN),
                micros < 50 ? "met" : "MISSED");
        }
    }
}

package io.rondo.server.cli;

import io.rondo.scheduler.sim.cycle.CombinationExperiment;
import io.rondo.scheduler.sim.cycle.CycleRun;
import io.rondo.scheduler.sim.cycle.CycleWorkload;
import io.rondo.scheduler.sim.cycle.MemoryAccounting;
import io.rondo.server.cli.console.Progress;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rondo simulate fig3|fig4|fig5a|fig5b}: the papers/003 experiments, stream combination
 * against a fixed time cycle. A picocli mixin of {@link SimulateCommand}: its options, and the run
 * that writes {@code DIR/<name>.csv}, {@code DIR/<name>.png} (and {@code DIR/<name>-series.csv}
 * over time for Figures 3 and 4) and prints a table.
 */
final class CombinationPresets {

    private static final long SECOND = 1_000_000_000L;
    private static final Map<String, MemoryAccounting> ACCOUNTINGS = Map.of(
        "double-buffered", MemoryAccounting.DOUBLE_BUFFERED, "equation2", MemoryAccounting.EQUATION_2);

    @Option(names = "--duration", paramLabel = "SECONDS",
        description = "fig3-fig5b: simulated seconds per run (default: the paper's 1200; 300 is a quick look).")
    private Integer durationSeconds;

    @Option(names = "--rate-unit", paramLabel = "kbyte|kbit",
        description = "fig3-fig5b: how the paper's 128-1024 'kbps' is read (default: kbyte, the reading that "
            + "reproduces its Figures 3 and 4; kbit: 128-1024 kbit/s).")
    private String rateUnit;

    @Option(names = "--memory", paramLabel = "double-buffered|equation2",
        description = "fig3-fig5b: how buffer memory is counted (default: double-buffered, as Rondo reserves it; "
            + "equation2: the paper's one IO per stream).")
    private String memory;

    /** True if any of these options was given: they shape only the papers/003 experiments. */
    boolean given() {
        return durationSeconds != null || rateUnit != null || memory != null;
    }

    /** The paper's workload as the options shape it. */
    CycleWorkload workload(long seed) {
        long bitsPerKbps = switch (rateUnit == null ? "kbyte" : rateUnit) {
            case "kbyte" -> CycleWorkload.KILOBYTES;
            case "kbit" -> CycleWorkload.KILOBITS;
            default -> throw new IllegalArgumentException("--rate-unit must be kbyte or kbit, was '" + rateUnit + "'");
        };
        MemoryAccounting accounting = ACCOUNTINGS.get(memory == null ? "double-buffered" : memory);
        if (accounting == null) {
            throw new IllegalArgumentException("--memory must be double-buffered or equation2, was '" + memory + "'");
        }
        if (durationSeconds != null && durationSeconds < 10) {
            throw new IllegalArgumentException("--duration must be at least 10 s, was " + durationSeconds);
        }
        CycleWorkload workload = CycleWorkload.paper(bitsPerKbps).withAccounting(accounting).withSeed(seed);
        return durationSeconds == null ? workload : workload.withRunNs(durationSeconds * SECOND);
    }

    /** Runs the named experiment and writes its files and table; the exit code. */
    int run(String name, long seed, Path out, boolean quiet, PrintWriter stdout) {
        CycleWorkload base = workload(seed);
        CombinationExperiment experiment = CombinationExperiment.named(name, base);
        SimulateCommand.createFolder(out);
        List<CycleRun> runs;
        try (ProgressBar progress = quiet ? null : Progress.bar(name, experiment.runs().size(), " runs")) {
            runs = experiment.run(step -> {
                if (progress != null) {
                    progress.stepBy(step);
                }
            });
        }
        Path csv = out.resolve(name + ".csv");
        Path png = out.resolve(name + ".png");
        List<String> rows = new ArrayList<>();
        rows.add(CycleRun.CSV_HEADER);
        runs.forEach(run -> rows.add(run.csvRow()));
        write(csv, rows);
        String also = "";
        if (name.equals("fig3") || name.equals("fig4")) {
            Path series = out.resolve(name + "-series.csv");
            write(series, series(runs));
            also = ", " + series;
        }
        CombinationChart.write(experiment, runs, png);
        printTable(experiment, base, runs, stdout);
        stdout.printf(Locale.ROOT, "%nwrote %s%s and %s%n", csv, also, png);
        stdout.flush();
        return 0;
    }

    private static List<String> series(List<CycleRun> runs) {
        List<String> lines = new ArrayList<>();
        lines.add("scheduler,time_s,streams,combined,memory_mib,cycle_ms,u_m,u_t");
        for (CycleRun run : runs) {
            for (CycleRun.Sample s : run.samples()) {
                lines.add(String.format(Locale.ROOT, "%s,%.1f,%d,%d,%.2f,%d,%.4f,%.4f", run.scheduler(),
                    s.timeNs() / 1e9, s.streams(), s.combined(), s.memoryBytes() / (double) (1 << 20),
                    s.cycleNs() / 1_000_000, s.memory(), s.cycle()));
            }
        }
        return lines;
    }

    static void printTable(CombinationExperiment experiment, CycleWorkload base, List<CycleRun> runs,
                           PrintWriter out) {
        out.printf(Locale.ROOT, "%s%n%d MiB (%s), disk %.0f ms access and %.0f MB/s, rates %s, arrivals every "
                + "%.1f-%.1f s, %.0f s, seed %d%n%n", experiment.title(), base.memoryBytes() >> 20,
            base.accounting() == MemoryAccounting.EQUATION_2 ? "Equation 2" : "double-buffered",
            base.disk().accessNs() / 1e6, base.disk().bytesPerSecond() / 1e6, base.rates(), base.minGapNs() / 1e9,
            base.maxGapNs() / 1e9, base.runNs() / 1e9, base.seed());
        String header = String.format(Locale.ROOT, "%-28s %-26s %8s %8s %5s %8s %4s %7s %6s %6s %6s %7s %8s %8s",
            "workload", "scheduler", "arrivals", "admitted", "peak", "glitches", "late", "IOs", "comb", "split",
            "double", "shorten", "cycle ms", "peak MiB");
        out.println(header);
        out.println("-".repeat(header.length()));
        for (CycleRun r : runs) {
            out.printf(Locale.ROOT, "%-28s %-26s %8d %8d %5d %8d %4d %7d %6d %6d %6d %7d %8d %8.1f%n", r.workload(),
                r.label(), r.arrivals(), r.admitted(), r.peakStreams(), r.glitches(), r.lateIos(), r.ios(),
                r.combines(), r.splits(), r.doubles(), r.shortens(), r.finalCycleNs() / 1_000_000,
                r.peakMemoryBytes() / (double) (1 << 20));
        }
        out.println();
        int bestFixed = runs.stream().filter(r -> r.scheduler().equals("fixed")).mapToInt(CycleRun::peakStreams)
            .max().orElse(0);
        for (int i = 0; i + 1 < runs.size(); i += 2) {
            CycleRun fixed = runs.get(i);
            CycleRun combined = runs.get(i + 1);
            out.printf(Locale.ROOT, "%-28s %s: %+.0f%% streams over %s%s%n", fixed.workload(), combined.label(),
                gain(combined, fixed.peakStreams()), fixed.label(), experiment.name().equals("fig5a")
                    ? String.format(Locale.ROOT, ", %+.0f%% against the best fixed cycle (%d)",
                    gain(combined, bestFixed), bestFixed) : "");
        }
    }

    private static double gain(CycleRun run, int than) {
        return than == 0 ? 0 : 100.0 * (run.peakStreams() - than) / than;
    }

    private static void write(Path file, List<String> lines) {
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}

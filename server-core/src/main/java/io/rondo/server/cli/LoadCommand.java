package io.rondo.server.cli;

import io.rondo.content.ingest.StorageDisk;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.load.DummyLoad;
import io.rondo.scheduler.load.LoadResult;
import io.rondo.scheduler.load.LoadSpec;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.scheduler.sim.SimulationResult;
import io.rondo.scheduler.sim.Simulator;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.config.StorageSettings;
import io.rondo.server.runtime.DiskModels;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rondo load --dummy}: XTREAM's dummy streams (papers/000 Section 3) through Rondo's own
 * executors, round clock and buffer pool, on emulated or real disks, measured as the simulator
 * measures, and compared with the simulator's prediction for the same workload.
 */
@Command(name = "load",
    description = {
        "Run a load through Rondo's disk executors and measure it.",
        "",
        "--dummy: N synthetic read streams per disk (VBR, or CBR with --cbr) and a Poisson D-load, on emulated disks "
            + "(real bytes read from data files in --dir, completed when the disk model says) or, with --real, on "
            + "the device itself. Reports glitches, D-response times and the slack left in each round "
            + "(papers/000 Figure 2), writes DIR/load.csv and DIR/load.png, and on emulated disks prints the "
            + "simulator's prediction beside the measurement."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class LoadCommand implements Callable<Integer> {

    /** The simulator's prediction runs at least this long, so that its own noise does not blur the comparison. */
    private static final int PREDICTION_ROUNDS = 600;

    @Spec
    private CommandSpec spec;

    @Option(names = "--dummy", required = true,
        description = "Dummy streams and a synthetic D-load, straight at the disks (no clients).")
    private boolean dummy;

    @Option(names = {"-n", "--streams"}, paramLabel = "N", defaultValue = "7",
        description = "Read streams per disk (default: ${DEFAULT-VALUE}).")
    private int streams;

    @Option(names = "--lambda", paramLabel = "RATE", defaultValue = "60",
        description = "D-requests per second over all disks (default: ${DEFAULT-VALUE}).")
    private double lambda;

    @Option(names = "--disks", paramLabel = "COUNT", defaultValue = "5",
        description = "Disks, each with its own data file and executor thread (default: ${DEFAULT-VALUE}).")
    private int disks;

    @Option(names = "--rounds", paramLabel = "COUNT", defaultValue = "60",
        description = "Rounds measured (default: ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--warmup", paramLabel = "COUNT", defaultValue = "5",
        description = "Rounds run first and not measured (default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--round-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Round length in milliseconds (default: ${DEFAULT-VALUE}).")
    private long roundMs;

    @Option(names = "--cbr", paramLabel = "BYTES",
        description = "CBR streams with fragments of this size (e.g. 762K); default: VBR fragments of --c-size.")
    private String cbr;

    @Option(names = "--c-size", paramLabel = "KIND:MEAN:SD", defaultValue = "gamma:800000:200000",
        description = "VBR fragment sizes in bytes (default: ${DEFAULT-VALUE}).")
    private String continuousSize;

    @Option(names = "--d-size", paramLabel = "KIND:MEAN:SD", defaultValue = "normal:50000:25000",
        description = "D-request sizes in bytes (default: ${DEFAULT-VALUE}).")
    private String discreteSize;

    @Option(names = "--policy", paramLabel = "POLICY", defaultValue = "mixed-incremental-scan",
        description = "The scheduling policy (default: ${DEFAULT-VALUE}).")
    private String policy;

    @Option(names = "--disk-profile", paramLabel = "NAME|FILE",
        description = "The disk model: emulated disks' timing, and the scheduler's estimates: a built-in profile, a "
            + "file, or measured (the device behind --dir, profiled once and stored in DIR/rondo/disk-profile.json). "
            + "Default: nerjes-1999 on emulated disks, measured with --real.")
    private String diskProfile;

    @Option(names = "--real",
        description = "Time IOs on the real device instead of emulating the model; positions come from FIEMAP.")
    private boolean real;

    @Option(names = "--stepped",
        description = "Run in virtual time (emulated disks only): the same executors, stepped, in seconds.")
    private boolean stepped;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "rondo-load",
        description = "Where the data files the streams read are made and kept (default: ${DEFAULT-VALUE}).")
    private Path dir;

    @Option(names = "--file-size", paramLabel = "SIZE", defaultValue = "64M",
        description = "Size of each disk's data file (default: ${DEFAULT-VALUE}).")
    private String fileSize;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "load",
        description = "Folder for load.csv and load.png (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1",
        description = "Seed of sizes, positions and arrivals (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    private boolean quiet;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (real && stepped) {
            throw new IllegalArgumentException("--stepped needs emulated disks; a real disk keeps real time");
        }
        DiskProfile model = model();
        LoadSpec load = new LoadSpec(SchedulingPolicy.parse(policy), model, !real, dir,
            ByteSizes.parse(fileSize, "--file-size"), disks, streams, cbr == null ? 0 : ByteSizes.parse(cbr, "--cbr"),
            SimulateCommand.sizes(continuousSize, "--c-size"), lambda, SimulateCommand.sizes(discreteSize, "--d-size"),
            roundMs * 1_000_000L, rounds, warmup, seed);
        Files.createDirectories(out);
        DiskIo io = DiskIo.best();
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.printf(Locale.ROOT, "%d dummy %s streams per disk and %.1f D-requests/s on %d %s disks (%s), "
                + "%d + %d rounds of %d ms, %s reader%n", streams, cbr == null ? "VBR" : "CBR", lambda, disks,
            real ? "real" : "emulated " + model.name(), dir, warmup, rounds, roundMs, io.kind());
        stdout.flush();
        LoadResult result;
        if (stepped) {
            result = DummyLoad.runStepped(load, io);
        } else {
            try (ProgressBar progress = quiet ? null : Progress.bar("load", warmup + rounds, " rounds")) {
                result = DummyLoad.runRealTime(load, io, round -> {
                    if (progress != null) {
                        progress.stepTo(Math.min(round, warmup + rounds));
                    }
                });
            }
        }
        SimulationResult predicted = real ? null : Simulator.run(load.policy(), model,
            load.asWorkload().withRounds(Math.max(PREDICTION_ROUNDS, rounds), warmup));
        print(result, predicted, stdout);
        Path csv = out.resolve("load.csv");
        Path png = out.resolve("load.png");
        writeCsv(result, csv);
        LoadChart.write(result, png);
        stdout.printf(Locale.ROOT, "%nwrote %s and %s%n", csv, png);
        stdout.flush();
        return result.glitches() == 0 && result.ioErrors() == 0 ? 0 : 1;
    }

    /**
     * The model {@code --disk-profile} names; without it, the paper's disk for emulated disks and,
     * with {@code --real}, the profile measured on the device behind {@code --dir}, as a server's
     * first start measures a disk.
     */
    private DiskProfile model() throws IOException {
        String setting = diskProfile != null ? diskProfile : real ? StorageSettings.MEASURED_DISK_PROFILE
            : DiskProfile.PAPER_DISK;
        if (!setting.equals(StorageSettings.MEASURED_DISK_PROFILE)) {
            return DiskProfile.resolve(setting);
        }
        Files.createDirectories(dir);
        DiskIo io = DiskIo.best();
        StorageDisk disk = new StorageDisk(io.device(dir).name(), dir);
        try (MeasuringListener measuring = new MeasuringListener(spec.commandLine().getErr(), quiet, () -> false)) {
            DiskModels.Choice choice = DiskModels.real(io).choose(setting, "--disk-profile", List.of(disk), false,
                measuring).get(0);
            spec.commandLine().getOut().println(choice.account());
            return choice.profile();
        }
    }

    private static void print(LoadResult r, SimulationResult predicted, PrintWriter out) {
        out.printf(Locale.ROOT, "%n%s, %.1f s on the wall clock%n", r.mode(), r.wallSeconds());
        out.printf(Locale.ROOT, "D-requests: %d answered, %.1f/s; response mean %.1f ms, p95 %.1f, p99 %.1f, "
            + "max %.1f ms%n", r.completed(), r.throughput(), r.meanMs(), r.p95Ms(), r.p99Ms(), r.maxMs());
        out.printf(Locale.ROOT, "C-requests: %d glitches; slack per round: min %.1f ms, mean %.1f ms%n",
            r.glitches(), r.minSlackMs(), r.meanSlackMs());
        out.printf(Locale.ROOT, "IO: %d errors, %d D-requests refused (queue full), %d emulated IOs whose real read "
            + "overran the model, emulated IOs %.0f us late on average%n", r.ioErrors(), r.rejected(), r.overrunIos(),
            r.lateUs());
        if (predicted != null) {
            double difference = (r.meanMs() - predicted.meanMs()) / predicted.meanMs() * 100;
            out.printf(Locale.ROOT, "Simulator, same workload: mean %.1f ms, p95 %.1f ms; measured mean is %+.1f%% "
                + "off the prediction%n", predicted.meanMs(), predicted.p95Ms(), difference);
        }
    }

    private static void writeCsv(LoadResult result, Path file) {
        List<String> lines = new ArrayList<>();
        lines.add("disk,round,slack_ms");
        double[][] slack = result.slackMs();
        for (int disk = 0; disk < slack.length; disk++) {
            for (int round = 0; round < slack[disk].length; round++) {
                lines.add(disk + "," + round + "," + String.format(Locale.ROOT, "%.3f", slack[disk][round]));
            }
        }
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}

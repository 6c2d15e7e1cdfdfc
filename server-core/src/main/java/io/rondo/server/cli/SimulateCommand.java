package io.rondo.server.cli;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.cli.console.Progress;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.scheduler.sim.Experiment;
import io.rondo.scheduler.sim.SimulationResult;
import io.rondo.scheduler.sim.SizeDistribution;
import io.rondo.scheduler.sim.Workload;
import io.rondo.scheduler.sim.cycle.CombinationExperiment;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rondo simulate}: runs the scheduler in virtual time on modelled disks and reports what
 * the papers/001 experiments report, as a CSV, a chart and a table.
 */
@Command(name = "simulate",
    description = {
        "Simulate the disk scheduler on modelled disks (papers/001 Section 5, papers/003 Section 3).",
        "",
        "Named experiments: fig9 (the four policies, Table 2 sizes), fig10 (small D-requests of Table 3), "
            + "fig11 (worst-case against omniscient rotational delay). 'custom' sweeps what the flags say.",
        "Stream combination (papers/003): fig3 and fig4 (against a fixed 500 ms and 5 s cycle, over time), "
            + "fig5a (against the initial cycle), fig5b (six workloads); --duration, --rate-unit and --memory "
            + "shape them.",
        "Placement over a cluster (issue 25): cluster (rendezvous hashing with replicas against HAProxy's "
            + "consistent hashing, 10 to 1,000 nodes, Zipf popularity); --nodes, --zipf, --replicas shape it.",
        "Writes DIR/<name>.csv and DIR/<name>.png and prints a table."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class SimulateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPERIMENT", defaultValue = "fig9",
        description = "fig9, fig10, fig11, custom, fig3, fig4, fig5a, fig5b or cluster (default: ${DEFAULT-VALUE}).")
    private String experimentName;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "simulation",
        description = "Folder for the CSV and the chart (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--policy", paramLabel = "POLICY", split = ";",
        description = "custom: policies to compare, presets or period=...,order=... specs separated by ';'"
            + " (default: the four presets). Presets: disjoint-incremental-fcfs, disjoint-incremental-scan, "
            + "mixed-incremental-scan, mixed-gated-scan.")
    private List<String> policies;

    @Option(names = {"-n", "--streams"}, paramLabel = "N", split = ",",
        description = "custom: C-requests per disk per round, one panel each (default: 3,7).")
    private List<Integer> streams;

    @Option(names = "--lambda", paramLabel = "RATES",
        description = "custom: D-arrival rates per second, all disks together: FROM:TO:STEP or a,b,c.")
    private String lambdas;

    @Option(names = "--d-size", paramLabel = "KIND:MEAN:SD", defaultValue = "normal:50000:25000",
        description = "custom: D-request sizes in bytes, normal or gamma (default: ${DEFAULT-VALUE}).")
    private String discreteSize;

    @Option(names = "--c-size", paramLabel = "KIND:MEAN:SD", defaultValue = "gamma:800000:200000",
        description = "C-request sizes in bytes, normal or gamma (default: ${DEFAULT-VALUE}).")
    private String continuousSize;

    @Option(names = "--omniscient",
        description = "custom: the scheduler knows each rotational delay (papers/001 Section 5.5).")
    private boolean omniscient;

    @Option(names = "--disks", paramLabel = "COUNT", defaultValue = "5",
        description = "Disks in the server (default: ${DEFAULT-VALUE}).")
    private int disks;

    @Option(names = "--rounds", paramLabel = "COUNT", defaultValue = "600",
        description = "Rounds measured per point, after the warm-up (default: ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--warmup", paramLabel = "COUNT", defaultValue = "20",
        description = "Rounds simulated first and not measured (default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--round-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Round length in milliseconds (default: ${DEFAULT-VALUE}).")
    private long roundMs;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1",
        description = "Random seed; one seed gives one output, byte for byte (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--disk-profile", paramLabel = "NAME|FILE", defaultValue = DiskProfile.PAPER_DISK,
        description = "The modelled disk: a built-in profile or a profile file (default: ${DEFAULT-VALUE}).")
    private String diskProfile;

    @Option(names = "--threads", paramLabel = "COUNT",
        description = "Points simulated at once (default: the number of processors).")
    private Integer threads;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    private boolean quiet;

    @Mixin
    private CombinationPresets combination;

    @Mixin
    private ClusterPresets cluster;

    @Override
    public Integer call() {
        if (!experimentName.equals(ClusterPresets.NAME) && cluster.given()) {
            throw new IllegalArgumentException("--nodes, --zipf, --replicas, --capacity, --objects-per-node and "
                + "--balance-factor shape the cluster simulation, not " + experimentName);
        }
        if (experimentName.equals(ClusterPresets.NAME)) {
            if (combination.given()) {
                throw new IllegalArgumentException("--duration, --rate-unit and --memory shape the papers/003 "
                    + "experiments " + CombinationExperiment.NAMES + ", not " + experimentName);
            }
            return cluster.run(seed, out, quiet, spec.commandLine().getOut());
        }
        if (CombinationExperiment.NAMES.contains(experimentName)) {
            return combination.run(experimentName, seed, out, quiet, spec.commandLine().getOut());
        }
        if (combination.given()) {
            throw new IllegalArgumentException("--duration, --rate-unit and --memory shape the papers/003 experiments "
                + CombinationExperiment.NAMES + ", not " + experimentName);
        }
        Experiment experiment = experiment();
        DiskProfile disk = DiskProfile.resolve(diskProfile);
        int workers = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (workers < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, was " + workers);
        }
        createFolder(out);
        PrintWriter stdout = spec.commandLine().getOut();
        List<SimulationResult> results;
        NanoClock clock = SystemClocks.nanoClock();
        long startNs = clock.nanoTime();
        try (ProgressBar progress = progressBar(experiment)) {
            results = experiment.run(disk, workers, step -> {
                if (progress != null) {
                    progress.stepBy(step);
                }
            });
        }
        double seconds = (clock.nanoTime() - startNs) / 1e9;
        Path csv = out.resolve(experiment.name() + ".csv");
        Path png = out.resolve(experiment.name() + ".png");
        SimulationReport.writeCsv(results, csv);
        SimulationChart.write(experiment, results, png);
        SimulationReport.printTable(experiment, results, disk, stdout);
        stdout.printf(Locale.ROOT, "%nwrote %s and %s (%d points in %.1f s)%n", csv, png, results.size(), seconds);
        stdout.flush();
        return 0;
    }

    private Experiment experiment() {
        boolean custom = experimentName.equalsIgnoreCase("custom");
        if (!custom && (policies != null || streams != null || lambdas != null || omniscient)) {
            throw new IllegalArgumentException("--policy, --streams, --lambda and --omniscient shape a custom sweep; "
                + "use 'rondo simulate custom ...' or drop them to run " + experimentName);
        }
        Experiment base = custom ? customExperiment() : Experiment.named(experimentName);
        Workload workload = new Workload(disks, 0, 0, sizes(continuousSize, "--c-size"),
            custom ? sizes(discreteSize, "--d-size") : base.base().discreteSize(),
            roundMs * 1_000_000L, rounds, warmup, seed, false);
        return base.withBase(workload);
    }

    private Experiment customExperiment() {
        if (lambdas == null) {
            throw new IllegalArgumentException("a custom sweep needs --lambda FROM:TO:STEP or --lambda a,b,c");
        }
        double[] rates = parseRates(lambdas);
        List<SchedulingPolicy> chosen = policies == null ? SchedulingPolicy.PRESETS
            : policies.stream().map(SchedulingPolicy::parse).toList();
        List<Experiment.Series> series = chosen.stream().map(policy -> new Experiment.Series(policy, omniscient))
            .toList();
        List<Experiment.Panel> panels = new ArrayList<>();
        for (int n : streams == null ? List.of(3, 7) : streams) {
            if (n < 0) {
                throw new IllegalArgumentException("--streams must not be negative, was " + n);
            }
            panels.add(new Experiment.Panel(n, rates));
        }
        return new Experiment("custom", "Mean response time of D-requests (custom sweep)", series, panels,
            Workload.paper(3, 0));
    }

    static double[] parseRates(String text) {
        try {
            if (text.contains(":")) {
                double[] parts = Arrays.stream(text.split(":")).mapToDouble(Double::parseDouble).toArray();
                if (parts.length != 3) {
                    throw new IllegalArgumentException("--lambda FROM:TO:STEP needs three numbers, was '" + text + "'");
                }
                return Experiment.range(parts[0], parts[1], parts[2]);
            }
            double[] rates = Arrays.stream(text.split(",")).map(String::trim)
                .mapToDouble(Double::parseDouble).toArray();
            for (double rate : rates) {
                if (!(rate >= 0)) {
                    throw new IllegalArgumentException("arrival rates must not be negative, was " + rate);
                }
            }
            return rates;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--lambda must be FROM:TO:STEP or a,b,c of numbers, was '" + text + "'");
        }
    }

    static SizeDistribution sizes(String text, String option) {
        String[] parts = text.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException(option + " must be KIND:MEAN:SD, e.g. normal:50000:25000, was '"
                + text + "'");
        }
        try {
            return SizeDistribution.of(parts[0], Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": MEAN and SD must be numbers, was '" + text + "'");
        }
    }

    static void createFolder(Path folder) {
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the output folder " + folder + ": " + e.getMessage(), e);
        }
    }

    private ProgressBar progressBar(Experiment experiment) {
        return quiet ? null : Progress.bar(experiment.name(), experiment.pointCount(), " points");
    }
}

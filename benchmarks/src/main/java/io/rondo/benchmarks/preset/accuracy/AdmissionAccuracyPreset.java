package io.rondo.benchmarks.preset.accuracy;

import io.rondo.benchmarks.preset.accuracy.AdmissionAccuracy.RowResult;
import io.rondo.benchmarks.preset.accuracy.AdmissionAccuracy.Settings;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.ThroughputModel;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.LongStream;

/**
 * The {@code table1} preset of {@code rondo bench}: papers/000 Table 1 (admission accuracy)
 * measured on papers/001's disk, emulated, through Rondo's own executor and scheduler. Also runs
 * alone: {@code java -cp benchmarks.jar io.rondo.benchmarks.preset.accuracy.AdmissionAccuracyPreset}.
 */
@Command(name = "table1", mixinStandardHelpOptions = true,
    description = {
        "Reproduce papers/000 Table 1 (admission accuracy) on the emulated disk of papers/001 Table 1.",
        "For each row (C: homogeneous CBR, V: VBR, H: heterogeneous CBR; 250, 1000 and 2000 kB/s) it finds MaxN, "
            + "the most streams whose fragments are all read within the round's continuous share "
            + "(T (1 - reserve)), by raising N until the first miss; then admits the same streams one by one "
            + "under adm1, adm2, adm3 and XTREAM's own Adm2 until the first rejection, and runs each admitted N.",
        "Writes DIR/table1.json, DIR/table1.md and DIR/table1.png."},
    sortOptions = false)
public final class AdmissionAccuracyPreset implements Callable<Integer> {

    /** Rounds per run of a full measurement. */
    static final int DEFAULT_ROUNDS = 10_000;
    /** Seeds of positions and rotations per N in a full measurement. */
    static final int DEFAULT_SEEDS = 5;
    /** Rounds and seeds of {@code --quick}. */
    static final int QUICK_ROUNDS = 300;
    static final int QUICK_SEEDS = 1;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the results go (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench-results", "table1");

    @Option(names = "--quick", description = "A smoke run for CI: three rows (C, V and H at 1000 kB/s), "
        + QUICK_ROUNDS + " rounds, one seed; the same code.")
    boolean quick;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds per run (default: " + DEFAULT_ROUNDS
        + ", or " + QUICK_ROUNDS + " with --quick).")
    Integer rounds;

    @Option(names = "--seeds", paramLabel = "K", description = "Runs per N, each with its own seed of fragment "
        + "positions and rotational delays; an N is clean only if all are (default: " + DEFAULT_SEEDS
        + ", or " + QUICK_SEEDS + " with --quick).")
    Integer seeds;

    @Option(names = "--seed", paramLabel = "S", description = "The first seed: the streams' (VBR sizes, the H mix's "
        + "rates) and the first run's (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    @Option(names = "--reserve", paramLabel = "SHARE", description = "The share of each round kept for D-requests "
        + "(default: Rondo's, ${DEFAULT-VALUE}).")
    double reserve = AdmissionConfig.DEFAULT_DISCRETE_RESERVE;

    @Option(names = "--no-progress", description = "No progress bar (it goes to standard error).")
    boolean noProgress;

    /** Runs the preset standalone; exits with its code. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new AdmissionAccuracyPreset()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Settings settings = settings();
        PrintWriter stdout = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        stdout.printf(Locale.ROOT, "papers/000 Table 1 on %s, rounds of %d ms, reserve %.2f: %d rounds x %d seed(s) "
                + "per N%n", DiskProfile.PAPER_DISK, settings.roundNs() / 1_000_000, settings.reserve(),
            settings.rounds(), settings.runSeeds().size());
        NanoClock clock = SystemClocks.nanoClock();
        long startNs = clock.nanoTime();
        List<RowResult> results = new ArrayList<>();
        if (noProgress) {
            results.addAll(AdmissionAccuracy.measure(settings, row -> { }));
        } else {
            try (ProgressBar bar = new ProgressBarBuilder().setTaskName("table1").setInitialMax(settings.rows().size())
                .setUnit(" rows", 1).setStyle(ProgressBarStyle.ASCII)
                .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(250)
                .continuousUpdate().build()) {
                results.addAll(AdmissionAccuracy.measure(settings, row -> {
                    bar.step();
                    bar.setExtraMessage(row.row().label() + ": MaxN " + row.maxN());
                }));
            }
        }
        double seconds = (clock.nanoTime() - startNs) / 1e9;
        stdout.print(Table1Report.table(results));
        Files.createDirectories(out);
        String description = describe(settings, seconds);
        Table1Report.writeJson(out.resolve("table1.json"), settingsJson(settings), results, seconds);
        Files.writeString(out.resolve("table1.md"), Table1Report.markdown(results, description));
        Table1Report.writeChart(out.resolve("table1.png"), results);
        stdout.printf(Locale.ROOT, "%s%nwrote %s, %s and %s%n", description, out.resolve("table1.json"),
            out.resolve("table1.md"), out.resolve("table1.png"));
        return 0;
    }

    Settings settings() {
        int runRounds = rounds != null ? rounds : quick ? QUICK_ROUNDS : DEFAULT_ROUNDS;
        int runSeeds = seeds != null ? seeds : quick ? QUICK_SEEDS : DEFAULT_SEEDS;
        if (runRounds < 1 || runSeeds < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                "--rounds and --seeds must be at least 1");
        }
        List<Table1Row> rows = Table1Row.paperRows();
        if (quick) {
            rows = rows.stream().filter(row -> row.averageKBps() == 1000).toList();
        }
        return new Settings(DiskProfile.paperDisk(), AdmissionConfig.DEFAULT_ROUND_NS, reserve, runRounds,
            LongStream.range(seed, seed + runSeeds).boxed().toList(), seed, rows);
    }

    private static String describe(Settings settings, double seconds) {
        return String.format(Locale.ROOT, "Disk %s (emulated), rounds of %d ms, D-reserve %.2f, scheduler "
                + "mixed-incremental-scan; %d rounds per run, seeds %s; Rondo's ADM2 at %.1f sigma; %.1f s.",
            DiskProfile.PAPER_DISK, settings.roundNs() / 1_000_000, settings.reserve(), settings.rounds(),
            settings.runSeeds(), ThroughputModel.ROUND_SIGMAS, seconds);
    }

    private static Map<String, Object> settingsJson(Settings settings) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("disk", DiskProfile.PAPER_DISK);
        json.put("roundMs", settings.roundNs() / 1_000_000);
        json.put("discreteReserve", settings.reserve());
        json.put("rounds", settings.rounds());
        json.put("runSeeds", settings.runSeeds());
        json.put("mixSeed", settings.mixSeed());
        json.put("vbrCv", StreamSet.VBR_CV);
        json.put("adm2Sigmas", ThroughputModel.ROUND_SIGMAS);
        json.put("scheduler", "mixed-incremental-scan");
        return json;
    }
}

package io.rondo.benchmarks.preset.combination;

import io.rondo.benchmarks.rig.Clip;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.server.config.ByteSizes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The {@code combination} preset of {@code rondo bench}: the server target for papers/003,
 * a Rondo server on the emulated disk of papers/001 with stream combination off and then on, one
 * stream of 128-1024 kbit/s offered a round to each, the same draws on both sides; the streams
 * each admits, the late fragments, and the streams in service round by round as a chart (papers/003
 * Figure 3 on a real server).
 */
@Command(name = "combination", mixinStandardHelpOptions = true,
    description = {
        "Stream combination on against off (papers/003) on a real Rondo server with the emulated disk of papers/001: "
            + "one stream a round offered to each, its rate drawn from 128-1024 kbit/s (the same draws on both "
            + "sides), every answer checked; then the admitted streams play on and their late fragments are counted.",
        "Writes DIR/combination.json, DIR/combination.md and DIR/combination.png (streams in service and the time "
            + "cycle, round by round). Exits 1 if any admitted stream had a late fragment or failed."},
    sortOptions = false)
public final class CombinationPreset implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "DIR", description = "Where the results go (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench-results", "combination");

    @Option(names = "--work", paramLabel = "DIR", description = "Where the clips and the servers' data go "
        + "(default: ${DEFAULT-VALUE}).")
    Path work = Path.of("bench-work", "combination");

    @Option(names = "--quick", description = "A smoke run for CI: two rates, 40 rounds offered, 4 played; the same "
        + "code.")
    boolean quick;

    @Option(names = "--round-ms", paramLabel = "MS", description = "scheduler.roundMs: the fragments' length and "
        + "the shortest cycle, a multiple of 200 ms (default: ${DEFAULT-VALUE}).")
    long roundMs = 400;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds a stream is offered in, one a round "
        + "(default: ${DEFAULT-VALUE}).")
    int offerRounds = 150;

    @Option(names = "--play-rounds", paramLabel = "N", description = "Rounds the admitted streams then play on "
        + "(default: ${DEFAULT-VALUE}).")
    int playRounds = 10;

    @Option(names = "--rates", split = ",", paramLabel = "KBIT", description = "The clips' rates in kbit/s, one drawn "
        + "per stream (default: 128 to 1024 by 128).")
    List<Long> rates = List.of(128L, 256L, 384L, 512L, 640L, 768L, 896L, 1024L);

    @Option(names = "--ceiling", paramLabel = "BYTES", description = "buffers.ceiling (default: ${DEFAULT-VALUE}).")
    String ceiling = "256M";

    @Option(names = "--seed", paramLabel = "N", description = "The draws' seed (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    /** Runs the preset standalone; exits with its code. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new CombinationPreset()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        if (roundMs <= 0 || roundMs % 200 != 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--round-ms must be a positive multiple "
                + "of 200 ms (the clips' keyframes), was " + roundMs);
        }
        List<Long> kbits = quick ? List.of(256L, 768L) : rates;
        int offered = quick ? 40 : offerRounds;
        int played = quick ? 4 : playRounds;
        int seconds = (int) ((offered + played + 10) * roundMs / 1000) + 30;
        List<Path> clips = new ArrayList<>();
        for (long kbit : kbits) {
            clips.add(Clip.makeConstant(work.resolve("clips"), kbit * 1000, seconds));
        }
        ClientProfile profile = new ClientProfile(1_250_000, 8L << 20);
        long ceilingBytes = ByteSizes.parse(ceiling, "--ceiling");
        stdout.printf(Locale.ROOT, "papers/003 on a server: emulated papers/001 disk, rounds of %d ms, one stream a "
            + "round for %d rounds at %s kbit/s, then %d rounds of play%n", roundMs, offered, kbits, played);
        List<CombinationRun.Result> results = new ArrayList<>();
        for (boolean on : new boolean[] {false, true}) {
            results.add(CombinationRun.run(new CombinationRun.Setup(on, clips, roundMs, offered, played, profile,
                seed, ceilingBytes, work), stdout));
        }
        String description = String.format(Locale.ROOT, "Emulated papers/001 disk, scheduler.roundMs %d, "
                + "buffers.ceiling %s; one stream offered a round for %d rounds, its clip drawn from %s kbit/s (seed "
                + "%d); clients declare 8 MiB and 10 Mbit/s; then %d rounds of play. Command: "
                + "rondo bench combination%s",
            roundMs, ceiling, offered, kbits, seed, played, quick ? " --quick" : "");
        Files.createDirectories(out);
        String table = CombinationReport.markdown(results, description);
        stdout.print(table);
        Files.writeString(out.resolve("combination.md"), table);
        CombinationReport.writeJson(out.resolve("combination.json"), description, results);
        CombinationReport.writeChart(out.resolve("combination.png"), results, roundMs);
        stdout.printf(Locale.ROOT, "wrote %s, %s and %s%n", out.resolve("combination.json"),
            out.resolve("combination.md"), out.resolve("combination.png"));
        for (CombinationRun.Result result : results) {
            if (result.late() > 0 || result.failed() > 0) {
                stdout.printf(Locale.ROOT, "FAILED: with combination %s, %d fragments were late and %d streams "
                    + "failed: an admitted stream must never glitch%n", result.combination() ? "on" : "off",
                    result.late(), result.failed());
                return 1;
            }
        }
        return 0;
    }
}

package io.rondo.benchmarks.preset.cluster;

import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.Folders;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.scheduler.time.SystemClocks;
import org.agrona.concurrent.NanoClock;
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
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The {@code cluster} preset of {@code rondo bench}: issue 25's targets for several Rondo nodes behind
 * HAProxy (papers/004 Section 6). Scale-out: one emulated-disk node alone, then three, each cluster
 * behind HAProxy with the same objects (r = 2), streams opened through HAProxy's stream port until
 * admission refuses, then played; three nodes should admit at least 2.8 times one node's streams, with
 * no late fragment. A node killed under load: streams play on the three nodes, the node serving the
 * most is killed with {@code kill -9}; every stream it served should go on elsewhere, its gap measured
 * against what its player held, and no object be lost.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = {
        "Issue 25's targets on this machine: one emulated-disk node, then three, behind HAProxy (rondo cluster "
            + "haproxy-config, haproxy as a child process), the same CBR clips uploaded through a node's admin API "
            + "(r = 2); streams opened through HAProxy's stream port until admission refuses, then played (streams "
            + "admitted, the ratio, late fragments, streams per node); then streams playing on the three nodes "
            + "while the node serving the most is killed with kill -9 (streams affected and resumed, their gaps "
            + "against the players' buffers, objects lost).",
        "Writes DIR/cluster.json, DIR/cluster.md and DIR/cluster.png. Exits 1 if three nodes admit under 2.8 "
            + "times one node's streams (not with --quick), a fragment was late, a stream did not go on after "
            + "the kill, or an object was lost."},
    sortOptions = false)
public final class ClusterPreset implements Callable<Integer> {

    /** Three nodes should admit at least this many times one node's streams (issue 25). */
    static final double TARGET_RATIO = 2.8;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the results go (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench-results", "cluster");

    @Option(names = "--work", paramLabel = "DIR", description = "Where the clip and the nodes' data go; the "
        + "nodes' folders are made afresh (default: ${DEFAULT-VALUE}).")
    Path work = Path.of("bench-work", "cluster");

    @Option(names = "--quick", description = "A smoke run for CI: 2 Mbit/s clips (fewer streams), 2 rounds of "
        + "play, a ramp that ends after --objects refusals in a row, 12 streams at the kill, and no ratio asked of "
        + "the scale-out; the same code.")
    boolean quick;

    @Option(names = "--kbit", paramLabel = "KBIT", description = "The clips' constant bit rate in kbit/s "
        + "(default: ${DEFAULT-VALUE}; 2000 with --quick).")
    long kbit = 1000;

    @Option(names = "--objects", paramLabel = "N", description = "How many objects (the same clip under N names, "
        + "each placed on its own owners) (default: ${DEFAULT-VALUE}).")
    int objects = 6;

    @Option(names = "--round-ms", paramLabel = "MS", description = "The nodes' scheduler.roundMs, a multiple of "
        + "200 ms (default: ${DEFAULT-VALUE}).")
    long roundMs = 1000;

    @Option(names = "--play-rounds", paramLabel = "N", description = "Rounds the admitted streams play together, "
        + "and the streams at the kill before and after it (default: ${DEFAULT-VALUE}).")
    int playRounds = 6;

    @Option(names = "--refusals", paramLabel = "K", description = "Consecutive refusals that end the ramp "
        + "(default: twice --objects; --objects with --quick).")
    Integer refusals;

    @Option(names = "--kill-streams", paramLabel = "N", description = "Streams playing when a node is killed "
        + "(default: ${DEFAULT-VALUE}; 12 with --quick).")
    int killStreams = 30;

    @Option(names = "--ceiling", paramLabel = "BYTES", description = "The nodes' buffers.ceiling "
        + "(default: ${DEFAULT-VALUE}).")
    String ceiling = "128M";

    /** Runs the preset standalone; exits with its code. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ClusterPreset()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        if (roundMs <= 0 || roundMs % 200 != 0 || objects < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--round-ms must be a positive multiple "
                + "of 200 ms (the clips' keyframes) and --objects positive");
        }
        NanoClock clock = SystemClocks.nanoClock();
        long startNs = clock.nanoTime();
        long bits = (quick && kbit == 1000 ? 2000 : kbit) * 1000;
        int rounds = quick ? 2 : playRounds;
        int atKill = quick ? 12 : killStreams;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < objects; i++) {
            names.add("/cluster-" + i + ".mp4");
        }
        ClientProfile profile = new ClientProfile(1_250_000, 8L << 20);
        ClusterRun.Setup setup = new ClusterRun.Setup(names, profile, roundMs, rounds,
            refusals != null ? refusals : quick ? objects : 2 * objects, 1000, 6);
        Path clip = Clip.makeConstant(work.resolve("clips"), bits, quick ? 60 : 120);
        stdout.printf(Locale.ROOT, "issue 25 on this machine: %d objects of %d kbit/s (r = 2), rounds of %d ms, %d "
            + "rounds of play, %d streams at the kill%n", objects, bits / 1000, roundMs, rounds, atKill);
        List<ClusterRun.ScaleOut> scaleOut = new ArrayList<>();
        ClusterRun.Kill kill;
        Path nodes = work.resolve("nodes");
        Folders.deleteTree(nodes);
        try (ClusterRig one = ClusterRig.start(nodes.resolve("one"), 1, 2, roundMs, ceiling, stdout, clock)) {
            ClusterRun run = new ClusterRun(one, setup, clock, stdout);
            run.upload(clip);
            scaleOut.add(run.scaleOut(1));
        }
        try (ClusterRig three = ClusterRig.start(nodes.resolve("three"), 3, 2, roundMs, ceiling, stdout, clock)) {
            ClusterRun run = new ClusterRun(three, setup, clock, stdout);
            run.upload(clip);
            Map<String, NodeApi.Fetched> before = run.readAll();
            scaleOut.add(run.scaleOut(3));
            kill = run.kill(atKill, before);
        }
        double seconds = (clock.nanoTime() - startNs) / 1e9;
        String description = String.format(Locale.ROOT, "Each node `rondo serve --node NAME --emulate` in a JVM of "
                + "its own (the emulated papers/001 disk), scheduler.roundMs %d, combination off, buffers.ceiling %s; "
                + "HAProxy in front on rondo cluster haproxy-config's configuration; %d objects of one %d kbit/s "
                + "CBR clip uploaded through node-a's admin API (r = 2); clients declare 8 MiB and 10 Mbit/s, follow "
                + "REDIRECT and reconnect; the ramp stops after %d refusals in a row; %d rounds of play; %.0f s. "
                + "Command: rondo bench cluster%s",
            roundMs, ceiling, objects, bits / 1000, setup.refusalsToStop(), rounds, seconds,
            quick ? " --quick" : "");
        Files.createDirectories(out);
        String table = ClusterReport.markdown(scaleOut, kill, roundMs, description);
        stdout.print(table);
        Files.writeString(out.resolve("cluster.md"), table);
        ClusterReport.writeJson(out.resolve("cluster.json"), description, scaleOut, kill);
        ClusterReport.writeChart(out.resolve("cluster.png"), kill);
        stdout.printf(Locale.ROOT, "wrote %s, %s and %s%n", out.resolve("cluster.json"), out.resolve("cluster.md"),
            out.resolve("cluster.png"));
        List<String> broken = ClusterReport.brokenPromises(scaleOut, kill, quick ? 0 : TARGET_RATIO);
        broken.forEach(promise -> stdout.println("FAILED: " + promise));
        return broken.isEmpty() ? 0 : 1;
    }
}

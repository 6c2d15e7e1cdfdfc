package io.rondo.benchmarks.preset.combination;

import io.rondo.benchmarks.rig.StreamDrain;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.cycle.Step;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.Publishing;
import io.rondo.server.stream.StreamServer;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One side of the combination preset: a Rondo server in this process on the emulated disk of
 * papers/001, with stream combination on or off; a client OPENs one stream a round, each of a
 * clip drawn from the rates given (the same draws on both sides), every answer checked, for a
 * number of rounds; then the admitted streams play on together and the fragments not on the wire
 * by their deadline are counted. The streams in service, the time cycle and the combined streams
 * are sampled every round.
 */
final class CombinationRun {

    /** What one side runs. */
    record Setup(boolean combination, List<Path> clips, long roundMs, int offerRounds, int playRounds,
                 ClientProfile profile, long seed, long ceilingBytes, Path work) {
    }

    /** One round's sample: seconds from the start, streams in service, the time cycle, streams combined. */
    record Sample(double seconds, int streams, double cycleSeconds, int combined) {
    }

    /** What one side measured. */
    record Result(boolean combination, int offered, int admitted, int inService, long late, int failed,
                  double cycleSeconds, int combined, Map<Step.Operation, Long> operations, Map<String, Integer> refused,
                  List<Sample> samples) {
    }

    private static final NanoClock CLOCK = SystemClocks.nanoClock();

    private CombinationRun() {
    }

    static Result run(Setup setup, PrintWriter log) throws Exception {
        Path dir = setup.work().resolve((setup.combination() ? "on" : "off") + "-" + setup.roundMs() + "ms");
        Files.createDirectories(dir);
        Path config = Files.writeString(dir.resolve("rondo.yaml"), "scheduler:\n  roundMs: " + setup.roundMs()
            + "\n  combination: " + setup.combination() + "\n");
        RondoConfig rondo = RondoConfig.load(config);
        try (Library library = Library.open(config, dir.resolve("data"), SystemClocks.utc())) {
            List<String> names = new ArrayList<>();
            for (Path clip : setup.clips()) {
                String name = "/" + clip.getFileName();
                Optional<Directory.Lease> stored = library.directory().open(name);
                if (stored.isEmpty()) {
                    library.ingest().ingest(new IngestRequest(clip, name, null, 0), c -> { });
                } else {
                    stored.get().close();
                }
                names.add(name);
            }
            DiskRuntime disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk()).emulate(true).roundNs(setup.roundMs() * 1_000_000)
                .bufferCeilingBytes(setup.ceilingBytes()).clocks(CLOCK, SystemClocks.epochClock()));
            StreamServer streams = null;
            try {
                streams = StreamServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    library.directory(), disks, AdmissionConfig.defaults(), StreamSettings.defaults(),
                    ConnectionLimit.unlimited("stream"), SystemClocks.epochClock(), Publishing.NONE,
                    rondo.schedulerSettings().combinationSettings());
                disks.start();
                return measure(setup, names, streams, disks, log);
            } finally {
                if (streams != null) {
                    streams.close();
                }
                disks.close();
            }
        }
    }

    private static Result measure(Setup setup, List<String> names, StreamServer streams, DiskRuntime disks,
                                  PrintWriter log) throws Exception {
        List<StreamClient> players = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicBoolean stopping = new AtomicBoolean();
        Map<String, Integer> refused = new TreeMap<>();
        SplittableRandom draws = new SplittableRandom(setup.seed());
        long roundNs = setup.roundMs() * 1_000_000;
        long startNs = CLOCK.nanoTime();
        int offered = 0;
        try {
            for (int round = 0; round < setup.offerRounds() + setup.playRounds(); round++) {
                long dueNs = startNs + round * roundNs;
                while (CLOCK.nanoTime() - dueNs < 0) {
                    Thread.sleep(Math.max(1, (dueNs - CLOCK.nanoTime()) / 1_000_000));
                }
                if (round < setup.offerRounds()) {
                    offered++;
                    String why = open(streams, names.get(draws.nextInt(names.size())), setup.profile(), players, failed,
                        stopping);
                    if (why != null) {
                        refused.merge(why, 1, Integer::sum);
                    }
                }
                samples.add(new Sample((CLOCK.nanoTime() - startNs) / 1e9, streams.admission().admittedStreams(),
                    streams.cycleNs() / 1e9, streams.combinedStreams()));
            }
            Result result = new Result(setup.combination(), offered, players.size(),
                streams.admission().admittedStreams(), streams.glitches(), failed.get(), streams.cycleNs() / 1e9,
                streams.combinedStreams(), streams.cycleOperations(), refused, samples);
            log.printf(Locale.ROOT, "  (%s, measured inflation %.2f)%n", streams.admission().utilization(Map.of()),
                streams.admission().inflation(disks.diskNames().get(0)));
            log.printf(Locale.ROOT, "  combination %-3s: %d offered, %d admitted, %d in service at the end, cycle "
                    + "%.1f s, %d combined, %d late, %d failed; %s; refused %s%n", setup.combination() ? "on" : "off",
                offered, result.admitted(), result.inService(), result.cycleSeconds(), result.combined(),
                result.late(), result.failed(), result.operations(), refused);
            return result;
        } finally {
            stopping.set(true);
            for (StreamClient player : players) {
                player.close();
            }
        }
    }

    /**
     * OPENs one stream of {@code name}: admitted, it plays on a thread of its own (null); refused, it
     * is let go, and the refusal's resource is answered ({@code disk-time}, {@code measuring}...).
     */
    private static String open(StreamServer streams, String name, ClientProfile profile, List<StreamClient> players,
                               AtomicInteger failed, AtomicBoolean stopping) throws IOException {
        StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort(), Duration.ofSeconds(60),
            StreamClient.DEFAULT_REPORT_INTERVAL);
        try {
            client.open(name, 0, profile);
        } catch (StreamRejectedException no) {
            client.close();
            String message = no.reject().message();
            int at = message.indexOf(" rejected, ");
            String resource = at < 0 ? message : message.substring(at + " rejected, ".length());
            return resource.split("[ :]")[0];
        }
        players.add(client);
        StreamDrain.start(client, "combination-player", failed, stopping);
        return null;
    }
}

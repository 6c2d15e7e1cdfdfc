package io.rondo.benchmarks.preset.clientbuffers;

import io.rondo.benchmarks.rig.StreamDrain;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.ClientBufferUse;
import io.rondo.server.config.StreamSettings;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskModels;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.stream.Publishing;
import io.rondo.server.net.ConnectionLimit;
import org.agrona.concurrent.NanoClock;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One point of the client-buffers preset: a Rondo server in this process, its rounds as long as
 * one fragment of the clip at its bit rate, its buffer ceiling fixed, {@code buffers.clientBuffers}
 * at the mode measured; clients that declare a large buffer and a fast rate OPEN streams one
 * after another until one is refused, each answer checked; then every admitted stream plays on
 * together for some rounds, and the fragments not on the wire by their deadline are counted.
 */
final class PointRun {

    /** Where a point's media and server live, and what its clients declare. */
    record Setup(String disk, boolean emulate, String clients, Path clip, long bitsPerSecond, long fragmentBytes,
                 long ceilingBytes, BufferMode mode, ClientProfile profile, int maxStreams, int playRounds,
                 Path work) {
    }

    private static final NanoClock CLOCK = SystemClocks.nanoClock();

    private PointRun() {
    }

    /** How far past its nominal size a round's fragment of the bench's clips may run (CBR's buffer, the muxing). */
    static final double FRAGMENT_SPREAD = 1.12;

    /** The bench's video clip has a keyframe every 200 ms; rounds are a multiple, so each holds whole GOPs. */
    static final long ROUND_STEP_MS = 200;

    /**
     * The round whose fragments at {@code bitsPerSecond} fill buffers of {@code bufferBytes}: a
     * fragment and its two alignment blocks, with {@link #FRAGMENT_SPREAD} to spare, within the
     * buffer, in whole steps of {@value #ROUND_STEP_MS} ms. A fragment of just over a power of two
     * would take a buffer twice its size, in every mode; this measures each mode at the buffer size.
     */
    static long roundMs(long bufferBytes, long bitsPerSecond) {
        double fragment = (bufferBytes - 2.0 * DiskIo.ALIGNMENT) / FRAGMENT_SPREAD;
        long ms = (long) (fragment * 8e3 / bitsPerSecond);
        return Math.max(ROUND_STEP_MS, ms / ROUND_STEP_MS * ROUND_STEP_MS);
    }

    /** Runs the point; {@code log} hears its progress. */
    static BufferPoint run(Setup setup, PrintWriter log) throws Exception {
        long roundMs = roundMs(setup.fragmentBytes(), setup.bitsPerSecond());
        Path dir = setup.work().resolve(setup.disk() + "-" + setup.clients() + "-" + roundMs + "ms");
        Files.createDirectories(dir);
        Path config = Files.writeString(dir.resolve("rondo.yaml"), "scheduler:\n  roundMs: " + roundMs
            + "\n  combination: false\n");
        try (Library library = Library.open(config, dir.resolve("data"), SystemClocks.utc())) {
            Optional<Directory.Lease> stored = library.directory().open("/clip");
            if (stored.isEmpty()) {
                library.ingest().ingest(new IngestRequest(setup.clip(), "/clip", null, 0), c -> { });
            } else {
                stored.get().close();
            }
            DiskProfile model = setup.emulate() ? DiskProfile.paperDisk()
                : DiskModels.real(DiskIo.best(), CLOCK, SystemClocks.epochClock()).choose("measured", "bench",
                    library.store().disks(), false, DiskModels.Listener.NONE).get(0).profile();
            DiskRuntime disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(model).emulate(setup.emulate()).roundNs(roundMs * 1_000_000).bufferCeilingBytes(
                    setup.ceilingBytes()).clocks(CLOCK, SystemClocks.epochClock()));
            StreamServer streams = null;
            try {
                streams = StreamServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    library.directory(), disks, AdmissionConfig.defaults(),
                    StreamSettings.defaults().withClientBuffers(use(setup.mode())), ConnectionLimit.unlimited("stream"),
                    SystemClocks.epochClock(), Publishing.NONE,
                    RondoConfig.load(config).schedulerSettings().combinationSettings());
                disks.start();
                return measure(setup, roundMs, disks, streams, log);
            } finally {
                if (streams != null) {
                    streams.close();
                }
                disks.close();
            }
        }
    }

    private static BufferPoint measure(Setup setup, long roundMs, DiskRuntime disks, StreamServer streams,
                                       PrintWriter log) throws Exception {
        List<StreamClient> players = new ArrayList<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicBoolean stopping = new AtomicBoolean();
        int answers = 0;
        String stoppedBy = "cap";
        try {
            while (players.size() < setup.maxStreams()) {
                StreamClient client = StreamClient.connect("127.0.0.1", streams.address().getPort(),
                    Duration.ofSeconds(60), StreamClient.DEFAULT_REPORT_INTERVAL);
                try {
                    client.open("/clip", 0, setup.profile());
                    answers++;
                    players.add(client);
                    StreamDrain.start(client, "client-buffers-player", failed, stopping);
                } catch (StreamRejectedException no) {
                    answers++;
                    client.close();
                    if (no.reject().message().contains(" rejected, measuring ")) {
                        Thread.sleep(Math.max(1, no.reject().retryAfterSeconds()) * 1000L);
                        continue;
                    }
                    stoppedBy = no.reject().message().contains(" rejected, delivery: ") ? "delivery"
                        : no.reject().reason().name().toLowerCase(Locale.ROOT).replace('_', '-');
                    break;
                }
            }
            int admitted = players.size();
            if (streams.streamsIn(setup.mode()) != admitted) {
                throw new IllegalStateException(admitted + " streams admitted, " + streams.streamsIn(setup.mode())
                    + " of them as " + setup.mode().paperName() + ": a client got another mode than expected");
            }
            long sharedBytes = shared(disks);
            long peakUsed = 0;
            long endNs = CLOCK.nanoTime() + setup.playRounds() * roundMs * 1_000_000;
            while (CLOCK.nanoTime() - endNs < 0) {
                peakUsed = Math.max(peakUsed, disks.buffers().inUseBytes());
                Thread.sleep(10);
            }
            log.printf(Locale.ROOT, "  %-6s %-5s %7s round %6d ms  %-9s admitted %4d (then %s), %d late, peak %s%n",
                setup.disk(), setup.clients(), ClientBuffersReport.size(setup.fragmentBytes()), roundMs,
                setup.mode().paperName(), admitted, stoppedBy, streams.glitches(),
                ClientBuffersReport.size(peakUsed));
            return new BufferPoint(setup.disk(), setup.clients(), setup.fragmentBytes(), roundMs, setup.mode(),
                admitted, stoppedBy, answers, streams.glitches(), streams.guardEndedStreams() + failed.get(),
                peakUsed, sharedBytes, setup.playRounds());
        } finally {
            stopping.set(true);
            for (StreamClient player : players) {
                player.close();
            }
        }
    }

    /** The server setting that lets a client get {@code mode} at most. */
    static ClientBufferUse use(BufferMode mode) {
        return switch (mode) {
            case DOUBLE -> ClientBufferUse.OFF;
            case CLIENT_BUFFER -> ClientBufferUse.BUFFER;
            case CLIENT_RATE -> ClientBufferUse.RATE;
        };
    }

    private static long shared(DiskRuntime disks) {
        long bytes = 0;
        for (BufferMode mode : BufferMode.values()) {
            if (mode.sharedAccount() != null) {
                bytes += disks.buffers().shareBytes(mode.sharedAccount());
            }
        }
        return bytes;
    }

}

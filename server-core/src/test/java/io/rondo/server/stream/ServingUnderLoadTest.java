package io.rondo.server.stream;

import io.rondo.server.observe.ResponseTimes;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.StreamClient;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.http.HotObjects;
import io.rondo.server.http.HttpServer;
import io.rondo.server.runtime.DiskRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streams joining 0, 8 and 23 running ones on loopback (an emulated paper disk, 1 s rounds), and
 * documents fetched over HTTP while 24 streams run: every stream starts, every document arrives
 * whole, and nothing glitches. The serving issue's figures (initial latency from OPEN to the first
 * DATA, after one stream has warmed the JVM and the init segment's cache, against its bound of one
 * maximal IO plus one fragment read; D-request response times) are printed for people and notes,
 * not asserted: on a shared machine they measure the machine.
 */
class ServingUnderLoadTest {

    /** A document of 100 kB, fetched with no hot-object cache, so every fetch is read from the disk. */
    private static final int DOCUMENT_BYTES = 100_000;

    @TempDir
    Path temp;

    @Test
    void joiningStreamsStartAndDocumentsArriveWholeWithoutAGlitchWhileStreamsRun() throws Exception {
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc())) {
            byte[] clip;
            try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
                clip = in.readAllBytes();
            }
            MediaObject video = library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("c.webm"), clip),
                "/clip.webm", null, 0), c -> { });
            byte[] doc = new byte[DOCUMENT_BYTES];
            new Random(1).nextBytes(doc);
            library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("d.bin"), doc), "/doc.bin", null, 0),
                c -> { });
            DiskProfile paper = DiskProfile.paperDisk();
            try (DiskRuntime disks = new DiskRuntime(
                     DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                    .model(paper)
                    .bufferCeilingBytes(256L << 20)
                    .emulate(true)
                    .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()));
                 StreamServer streams = StreamServer.start(new InetSocketAddress("127.0.0.1", 0),
                     library.directory(), disks, RondoConfig.defaults().admissionConfig(),
                     SystemClocks.epochClock());
                 HttpServer http = HttpServer.on(new InetSocketAddress("127.0.0.1", 0), library.directory(),
                         disks.start())
                         .streams(streams)
                         .hotObjects(new HotObjects(0, 0))
                         .clock(SystemClocks.utc())
                         .start()) {
                long largest = video.media().fragments().stream().mapToLong(Fragment::length).max().orElseThrow();
                long oneIoNs = paper.maxSeekNs() + paper.worstCaseRotationNs() + paper.transferNs(0, largest);
                double boundMs = 2 * oneIoNs / 1e6 + 5;
                System.out.printf(Locale.ROOT, "%nServing targets (emulated nerjes-1999 disk, 1 s rounds)%n");
                System.out.printf(Locale.ROOT,
                    "initial latency bound: one maximal IO plus one fragment read = %.1f ms%n", boundMs);
                play(streams.address().getPort(), new java.util.concurrent.CountDownLatch(1));
                for (int n : new int[] {0, 8, 23}) {
                    double[] latencies = joinRunning(streams, n, http.address().getPort(), doc);
                    System.out.printf(Locale.ROOT, "a stream joining %2d running streams: initial latency %s ms%n", n,
                        Arrays.toString(Arrays.stream(latencies).map(ms -> Math.round(ms * 10) / 10.0).toArray()));
                }
                ResponseTimes disk = disks.discreteResponseTimes();
                System.out.printf(Locale.ROOT, "D-requests on the disk, arrival to last byte read: %d, mean %.1f ms, "
                    + "p95 %.1f ms, p99 %.1f ms, max %.1f ms%n", disk.count(), disk.meanMs(), disk.p95Ms(),
                    disk.p99Ms(), disk.maxMs());
                assertEquals(0, streams.glitches(), "no glitches");
            }
        }
    }

    /**
     * Starts {@code running} streams one after another, then, while they play, opens three more one
     * by one and measures each one's initial latency (leaving at its first DATA); with many running,
     * then also fetches {@code doc} over HTTP and times it.
     */
    private static double[] joinRunning(StreamServer streams, int running, int httpPort, byte[] doc)
        throws Exception {
        int port = streams.address().getPort();
        ExecutorService pool = Executors.newFixedThreadPool(running + 1);
        try {
            List<Future<Double>> background = new ArrayList<>();
            java.util.concurrent.CountDownLatch flowing = new java.util.concurrent.CountDownLatch(running);
            for (int i = 0; i < running; i++) {
                background.add(pool.submit(() -> play(port, flowing)));
            }
            assertTrue(flowing.await(30, java.util.concurrent.TimeUnit.SECONDS), "the running streams got going");
            double[] latencies = new double[3];
            for (int i = 0; i < latencies.length; i++) {
                latencies[i] = firstData(port);
            }
            Future<double[]> documents = running > 10 ? pool.submit(() -> fetch(httpPort, doc)) : null;
            if (documents != null) {
                double[] times = documents.get();
                Arrays.sort(times);
                System.out.printf(Locale.ROOT, "documents (%,d bytes, from disk) while %d streams run: mean %.1f ms, "
                    + "p95 %.1f ms, p99 %.1f ms, max %.1f ms%n", doc.length, running,
                    Arrays.stream(times).average().orElse(0),
                    times[(int) (times.length * 0.95) - 1], times[(int) (times.length * 0.99) - 1],
                    times[times.length - 1]);
            }
            for (Future<Double> stream : background) {
                stream.get();
            }
            return latencies;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Opens a stream, waits for its first DATA, and leaves; returns the initial latency in milliseconds.
     * A refusal while admission is still measuring the disk's fuller rounds is retried after the
     * retry-after it names, as a player does (at most 5 times), and the latency counts from that OPEN.
     */
    private static double firstData(int port) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return openToFirstData(port);
            } catch (io.rondo.client.StreamRejectedException rejected) {
                if (attempt == 5 || !rejected.getMessage().contains("measuring")) {
                    throw rejected;
                }
                Thread.sleep(rejected.reject().retryAfterSeconds() * 1000L);
            }
        }
    }

    private static double openToFirstData(int port) throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
            long openNs = System.nanoTime();
            client.open("/clip.webm", 0, new ClientProfile(8L << 20, 8L << 20));
            assertNotNull(client.nextData(), "the joining stream got its first fragment");
            return (System.nanoTime() - openNs) / 1e6;
        }
    }

    /** Plays the clip to its end, counting {@code flowing} down at its first DATA; returns the initial latency. */
    private static double play(int port, java.util.concurrent.CountDownLatch flowing) throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", port)) {
            long openNs = System.nanoTime();
            client.open("/clip.webm", 0, new ClientProfile(8L << 20, 8L << 20));
            Data first = client.nextData();
            double ms = (System.nanoTime() - openNs) / 1e6;
            assertNotNull(first, "the running stream got its first fragment");
            flowing.countDown();
            while (client.nextData() != null) {
                // Played to the end, so the stream runs while the others join; each read waits for its DATA.
            }
            return ms;
        }
    }

    /** Fetches {@code doc} 200 times, checking each copy whole; returns each fetch's time in milliseconds. */
    private static double[] fetch(int port, byte[] doc) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        double[] times = new double[200];
        for (int i = 0; i < times.length; i++) {
            long startNs = System.nanoTime();
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/doc.bin")).build(), HttpResponse.BodyHandlers.ofByteArray());
            times[i] = (System.nanoTime() - startNs) / 1e6;
            assertEquals(200, response.statusCode());
            assertArrayEquals(doc, response.body(), "the document arrives whole");
        }
        return times;
    }
}

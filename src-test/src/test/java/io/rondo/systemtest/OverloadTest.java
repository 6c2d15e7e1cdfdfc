package io.rondo.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.launch.ServeProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo serve}, in a JVM with a fixed heap, offered more than it can carry: twice the
 * streams admission allows, clients downloading a large object as fast as they can read, and a
 * slowloris population (HTTP headers sent a byte at a time, stream connections that send nothing
 * or half a frame). The promises under that load: every admitted stream gets every fragment in
 * order with no glitch counted by the server; every stream past the limit is refused for lack of a
 * resource with a retry-after; every HTTP request is answered 2xx or refused 503 with a
 * {@code Retry-After}, none hangs; every slow client is cut off; the heap stays bounded.
 *
 * <p>The run lasts {@code -Drondo.overload.seconds} (10 s by default; the {@code overload} Maven
 * profile makes it 180 s). The figures go to standard output; docs/overload.md explains them.
 */
class OverloadTest {

    private static final String STREAM = "/overload/stream.bin";
    private static final String LARGE = "/overload/large.bin";
    private static final String SMALL = "/overload/small.bin";
    /** The stream's declared bit rate: a 4 Mbit/s video, one 500 kB fragment a round. */
    private static final long BIT_RATE = 4_000_000;
    private static final int STREAM_SECONDS = 20;
    private static final int LARGE_BYTES = 16 << 20;
    private static final int SMALL_BYTES = 64 << 10;
    private static final String HEAP = "512m";
    /** The bound on the heap in use: three quarters of {@link #HEAP}, so a server near its limit fails the test. */
    private static final long HEAP_BOUND_BYTES = 384L << 20;
    /** A slow client the server has not cut off after this long is held at the client's pleasure. */
    private static final long SLOW_CLIENT_BOUND_MS = 30_000;

    @TempDir
    Path temp;

    @Test
    void anOverloadedServerKeepsItsPromises() throws Exception {
        long seconds = Long.getLong("rondo.overload.seconds", 10);
        Path data = temp.resolve("data");
        long fragments = ingest(data);
        try (ServeProcess rondo = RondoServe.start(data, temp.resolve("serve.txt"),
                 List.of("-Xmx" + HEAP, "-XX:MaxDirectMemorySize=" + HEAP));
             MetricsWatch metrics = new MetricsWatch(rondo.adminUrl(), rondo.adminToken())) {
            StreamViewers viewers = new StreamViewers(rondo.streamPort(), STREAM, RondoUnderTest.PROFILE, fragments);
            List<RawStreamConnection> admitted = viewers.openUntilRefused(1000);
            int allowed = admitted.size();
            int admittedPerDisks = admittedStreams(rondo);
            long stopAtNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            admitted.forEach(connection -> viewers.start(connection, stopAtNs));
            for (int i = 0; i < allowed; i++) {
                viewers.start(null, stopAtNs);
            }
            GreedyHttpClients downloads = new GreedyHttpClients();
            String http = "http://127.0.0.1:" + rondo.httpPort();
            downloads.start(4, http + LARGE, LARGE_BYTES, stopAtNs);
            GreedyHttpClients pages = new GreedyHttpClients();
            pages.start(2, http + SMALL, SMALL_BYTES, stopAtNs);
            SlowClients slow = new SlowClients();
            slow.start("http-header", 8, rondo.httpPort(), ("GET " + SMALL + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "X-Slow: " + "z".repeat(1000)).getBytes(StandardCharsets.US_ASCII), SLOW_CLIENT_BOUND_MS);
            slow.start("stream-silent", 4, rondo.streamPort(), new byte[0], SLOW_CLIENT_BOUND_MS);
            byte[] open = FrameCodec.encode(new Open(STREAM.substring(1), 0, RondoUnderTest.PROFILE)).array();
            slow.start("stream-half-frame", 4, rondo.streamPort(), Arrays.copyOf(open, open.length / 2),
                SLOW_CLIENT_BOUND_MS);

            TimeUnit.NANOSECONDS.sleep(Math.max(0, stopAtNs - System.nanoTime()));
            viewers.stop();
            downloads.stop();
            pages.stop();
            slow.join();
            slow.close();
            String page = metrics.read();
            long glitches = (long) MetricsWatch.sum(page, "rondo_stream_glitches_total");
            long roundMisses = (long) MetricsWatch.sum(page, "rondo_deadline_misses_total");
            long peakHeap = metrics.peakHeapBytes();
            String printed = rondo.printed();
            Files.writeString(Path.of("target", "overload-serve.txt"), printed);

            System.out.printf(Locale.ROOT, "overload: %d s; streams: admission allows %d (the disks say %d), "
                    + "%d viewers; offered %d, admitted %d, refused %d, played to END %d, cut by the run's end %d, "
                    + "fragments %d; glitches %d; round reads the disks missed (late or dropped) %d%n", seconds,
                allowed, admittedPerDisks, 2 * allowed,
                viewers.offered.get(), viewers.admitted.get(), viewers.refused.get(), viewers.played.get(),
                viewers.cutByTheEnd.get(), viewers.fragmentsReceived.get(), glitches, roundMisses);
            System.out.printf(Locale.ROOT, "overload: http %s: %s%n", LARGE, downloads.summary());
            System.out.printf(Locale.ROOT, "overload: http %s: %s%n", SMALL, pages.summary());
            System.out.printf(Locale.ROOT, "overload: slow clients: %s%n", slow.summary());
            System.out.printf(Locale.ROOT, "overload: peak heap used %.1f MiB of -Xmx%s (bound %d MiB)%n",
                peakHeap / 1048576.0, HEAP, HEAP_BOUND_BYTES >> 20);

            assertAll(
                () -> assertTrue(allowed > 0, "admission allowed no stream at all"),
                () -> assertTrue(viewers.refused.get() > 0, "the streams past the limit were refused"),
                () -> assertEquals(List.of(), viewers.problems(), "streams: admitted ones whole and in order, "
                    + "the others refused for a resource with a retry-after"),
                () -> assertEquals(0, glitches, "fragments the server put on the wire after their deadline"),
                () -> assertTrue(pages.answered.get() > 0, "some pages were answered"),
                () -> assertTrue(downloads.bytes.get() > 0, "the large object was being downloaded"),
                () -> assertEquals(List.of(), downloads.problems(), "downloads: answered 2xx or refused 503"),
                () -> assertEquals(List.of(), pages.problems(), "pages: answered 2xx or refused 503"),
                () -> assertEquals(0, downloads.refusedWithoutRetryAfter.get() + pages.refusedWithoutRetryAfter.get(),
                    "503s without a Retry-After"),
                () -> assertEquals(List.of(), slow.notCutOff(), "slow clients still connected after "
                    + SLOW_CLIENT_BOUND_MS + " ms"),
                () -> assertTrue(peakHeap > 0 && peakHeap < HEAP_BOUND_BYTES, "peak heap used " + peakHeap),
                () -> assertFalse(printed.contains("OutOfMemoryError"), "the server ran out of memory:\n" + printed));
        }
    }

    /** Fills the library: the stream (constant bit rate), the large and the small object; returns its fragments. */
    private long ingest(Path data) throws Exception {
        Random random = new Random(11);
        try (Library library = Library.open(RondoConfig.defaults(), data, SystemClocks.utc())) {
            MediaObject stream = library.ingest().ingest(new IngestRequest(write("stream.bin",
                (int) (BIT_RATE / 8 * STREAM_SECONDS), random), STREAM, Kind.CONTINUOUS, BIT_RATE), c -> { });
            library.ingest().ingest(new IngestRequest(write("large.bin", LARGE_BYTES, random), LARGE, null, 0),
                c -> { });
            library.ingest().ingest(new IngestRequest(write("small.bin", SMALL_BYTES, random), SMALL, null, 0),
                c -> { });
            return stream.media().fragments().size();
        }
    }

    private Path write(String name, int size, Random random) throws IOException {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return Files.write(temp.resolve(name), bytes);
    }

    /** The streams admitted on all disks together, as the admin API's disks resource says. */
    private static int admittedStreams(ServeProcess rondo) throws IOException {
        HttpURLConnection http = (HttpURLConnection) URI.create(rondo.adminUrl() + "/api/v1/disks").toURL()
            .openConnection();
        http.setRequestProperty("Authorization", "Bearer " + rondo.adminToken());
        try (InputStream in = http.getInputStream()) {
            int admitted = 0;
            for (JsonNode disk : new ObjectMapper().readTree(in).path("items")) {
                admitted += disk.path("admittedStreams").asInt();
            }
            return admitted;
        }
    }
}

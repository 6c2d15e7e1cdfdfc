package io.rondo.server.http;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Discrete data over a real socket: whole objects, ranges, preconditions, folders, errors, all through the disks. */
class HttpServeTest {

    @TempDir
    static Path temp;

    private static Library library;
    private static DiskRuntime disks;
    private static HttpServer server;
    private static final Set<String> READ_THREADS = ConcurrentHashMap.newKeySet();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static byte[] big;
    private static byte[] clip;
    private static MediaObject bigObject;

    @BeforeAll
    static void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"));
        big = new byte[1_300_000];
        new Random(3).nextBytes(big);
        Path bigFile = Files.write(temp.resolve("big.bin"), big);
        bigObject = library.ingest().ingest(new IngestRequest(bigFile, "/docs/big.bin", null, 0), c -> { });
        Files.writeString(temp.resolve("index.html"), "<h1>hello</h1>");
        library.ingest().ingest(new IngestRequest(temp.resolve("index.html"), "/index.html", null, 0), c -> { });
        try (InputStream in = HttpServeTest.class.getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        Path clipFile = Files.write(temp.resolve("clip.webm"), clip);
        clip = io.rondo.server.StoredCopy.of(clipFile);
        library.ingest().ingest(new IngestRequest(clipFile, "/videos/clip 1.webm", null, 0), c -> { });
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .device(device -> (request, task, scratch) -> {
                    READ_THREADS.add(Thread.currentThread().getName());
                    return device.read(request, task, scratch);
                })
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock())).start();
        server = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks);
    }

    @AfterAll
    static void stop() {
        server.close();
        disks.close();
        library.close();
    }

    private static HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        return send("GET", path, headers);
    }

    private static HttpResponse<byte[]> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort()
            + path)).method(method, HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aWholeObjectArrivesWithItsValidatorsReadThroughTheDiskExecutors() throws Exception {
        HttpResponse<byte[]> response = get("/docs/big.bin");

        assertEquals(200, response.statusCode());
        assertArrayEquals(big, response.body(), "five chunks of D-requests, reassembled");
        assertEquals(String.valueOf(big.length), response.headers().firstValue("content-length").orElseThrow());
        assertEquals(bigObject.etag(), response.headers().firstValue("etag").orElseThrow());
        assertEquals("bytes", response.headers().firstValue("accept-ranges").orElseThrow());
        assertTrue(response.headers().firstValue("last-modified").isPresent());
        assertFalse(READ_THREADS.isEmpty());
        assertTrue(READ_THREADS.stream().allMatch(name -> name.startsWith("rondo-disk-")),
            "only disk executors read disks, never an event loop: " + READ_THREADS);
    }

    @Test
    void headSaysTheLengthAndSendsNothing() throws Exception {
        HttpResponse<byte[]> response = send("HEAD", "/docs/big.bin");

        assertEquals(200, response.statusCode());
        assertEquals(String.valueOf(big.length), response.headers().firstValue("content-length").orElseThrow());
        assertEquals(0, response.body().length);
    }

    @Test
    void aRangeIsPartialContent() throws Exception {
        HttpResponse<byte[]> response = get("/docs/big.bin", "Range", "bytes=1000000-1299999");

        assertEquals(206, response.statusCode());
        assertEquals("bytes 1000000-1299999/1300000", response.headers().firstValue("content-range").orElseThrow());
        assertArrayEquals(Arrays.copyOfRange(big, 1_000_000, 1_300_000), response.body());
    }

    @Test
    void conditionalAndUnsatisfiableRequestsAreAnsweredWithoutABody() throws Exception {
        HttpResponse<byte[]> notModified = get("/docs/big.bin", "If-None-Match", bigObject.etag());
        HttpResponse<byte[]> unsatisfiable = get("/docs/big.bin", "Range", "bytes=2000000-");
        HttpResponse<byte[]> failed = get("/docs/big.bin", "If-Match", "\"other\"");
        HttpResponse<byte[]> staleIfRange = get("/docs/big.bin", "Range", "bytes=0-9", "If-Range", "\"stale\"");

        assertEquals(304, notModified.statusCode());
        assertEquals(0, notModified.body().length);
        assertEquals(416, unsatisfiable.statusCode());
        assertEquals("bytes */1300000", unsatisfiable.headers().firstValue("content-range").orElseThrow());
        assertEquals(412, failed.statusCode());
        assertEquals(200, staleIfRange.statusCode(), "a stale If-Range gets the whole object");
        assertEquals(big.length, staleIfRange.body().length);
    }

    @Test
    void aClipIsAlsoAPlainDownloadReassembledFromItsStripes() throws Exception {
        HttpResponse<byte[]> whole = get("/videos/clip%201.webm");
        HttpResponse<byte[]> middle = get("/videos/clip%201.webm", "Range", "bytes=20000-120000");

        assertEquals(200, whole.statusCode());
        assertEquals("video/webm", whole.headers().firstValue("content-type").orElseThrow());
        assertArrayEquals(clip, whole.body(), "init segment and fragments, in order");
        assertArrayEquals(Arrays.copyOfRange(clip, 20_000, 120_001), middle.body(), "a range across fragments");
    }

    @Test
    void foldersArePagesAndAFolderWithoutItsSlashIsRedirected() throws Exception {
        HttpResponse<byte[]> root = get("/");
        HttpResponse<byte[]> videos = get("/videos/");
        HttpResponse<byte[]> noSlash = get("/videos");

        assertEquals(200, root.statusCode());
        String page = new String(root.body(), StandardCharsets.UTF_8);
        assertTrue(page.contains("href=\"/docs/\"") && page.contains("href=\"/index.html\""), page);
        assertTrue(new String(videos.body(), StandardCharsets.UTF_8).contains("href=\"/videos/clip%201.webm\""));
        assertEquals(301, noSlash.statusCode());
        assertEquals("/videos/", noSlash.headers().firstValue("location").orElseThrow());
    }

    @Test
    void badRequestsGetShortPlainAnswers() throws Exception {
        assertEquals(404, get("/nothing.txt").statusCode());
        assertEquals(404, get("/nothing/").statusCode());
        assertEquals(404, get("/docs/../../etc/passwd").statusCode());
        assertEquals(404, get("/docs/%2e%2e/%2e%2e/etc/passwd").statusCode());
        HttpResponse<byte[]> post = send("POST", "/docs/big.bin");
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("allow").orElseThrow());
        assertTrue(new String(post.body(), StandardCharsets.UTF_8).startsWith("405 Method Not Allowed"));
        assertEquals(414, get("/" + "a".repeat(HttpSettings.DEFAULT_MAX_REQUEST_LINE)).statusCode());
    }

    /** The http: settings reach the port: a tighter request line and range count than the defaults. */
    @Test
    void theConfiguredLimitsAreTheOnesAServerAnswersBy() throws Exception {
        HttpSettings tight = new HttpSettings(256, HttpSettings.DEFAULT_MAX_HEADERS, HttpSettings.DEFAULT_MAX_BODY,
            HttpSettings.DEFAULT_IDLE_TIMEOUT_SECONDS, HttpSettings.DEFAULT_HEADER_TIMEOUT_MS, 2,
            HttpSettings.DEFAULT_WRITE_BUFFER_LOW, HttpSettings.DEFAULT_WRITE_BUFFER_HIGH,
            HttpSettings.DEFAULT_HOT_OBJECT_MAX, HttpSettings.DEFAULT_HOT_OBJECTS_TOTAL);
        try (HttpServer strict = HttpServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks,
            null, tight)) {
            String base = "http://127.0.0.1:" + strict.address().getPort();
            HttpResponse<byte[]> longLine = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/"
                + "a".repeat(300))).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(414, longLine.statusCode(), "a 300-byte request line passes http.maxRequestLine: 256");
            HttpResponse<byte[]> twoRanges = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/docs/big.bin"))
                .header("Range", "bytes=0-0,10-10").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(206, twoRanges.statusCode());
            HttpResponse<byte[]> threeRanges = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/docs/big.bin"))
                .header("Range", "bytes=0-0,10-10,20-20").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, threeRanges.statusCode(), "three ranges pass http.maxRanges: 2; the whole object");
            assertArrayEquals(big, threeRanges.body());
        }
    }

    @Test
    void everyBufferGoesBackToThePool() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertEquals(200, get("/docs/big.bin").statusCode());
        }
        await("every chunk's buffer back in the pool").atMost(Duration.ofSeconds(5))
            .until(() -> disks.buffers().outstanding() == 0);
    }
}

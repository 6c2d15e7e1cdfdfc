package io.rondo.systemtest;

import io.rondo.server.config.HttpSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a hostile or careless client sends the HTTP port, as bytes on a socket, and what it must
 * get: ranges that cannot multiply the bytes sent, a header that cannot be dribbled in forever,
 * and RFC 9112's message rules (Host, version, absolute-form targets).
 */
class HttpConformanceTest {

    private static final int SIZE = 3_000_000;
    /** Generous room for a response's status line and headers. */
    private static final int HEAD_ROOM = 1024;
    /** Short, so a test can outlast it; the default is 10 s. */
    private static final long HEADER_TIMEOUT_MS = 1_000;

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, SIZE, HttpSettings.defaults().withHeaderTimeoutMs(HEADER_TIMEOUT_MS));
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", rondo.httpPort());
        socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
        return socket;
    }

    private static RawHttpTest.Response exchange(String request) throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return RawHttpTest.read(socket.getInputStream(), false);
        }
    }

    private static RawHttpTest.Response get(String target, String... headers) throws IOException {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        return exchange(request.append("\r\n").toString());
    }

    private static String copies(String range, int times) {
        return "Range: bytes=" + String.join(",", Collections.nCopies(times, range));
    }

    // An attacker asks for the whole object 32 times over in one Range header: the object is sent once.
    @Test
    void rangesAskingForMoreThanTheObjectGetTheWholeObjectOnce() throws Exception {
        RawHttpTest.Response response = get(RondoUnderTest.DOC, copies("0-2999999", 32));

        assertEquals(200, response.status(), "a Range asking for more than the object is ignored");
        assertArrayEquals(rondo.doc, response.body());
    }

    // Forty such attackers at once, the object hot in memory, get forty objects' worth of bytes, not 3.84 GB.
    @Test
    void fortyParallelOverlappingRangeRequestsSendNoMoreThanFortyObjects() throws Exception {
        assertEquals(200, get(RondoUnderTest.DOC).status(), "the object is read whole once, into memory");
        int clients = 40;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Long>> received = new ArrayList<>();
            long startNs = System.nanoTime();
            for (int i = 0; i < clients; i++) {
                received.add(pool.submit(() -> wireBytes("GET " + RondoUnderTest.DOC + " HTTP/1.1\r\nHost: x\r\n"
                    + copies("0-2999999", 32) + "\r\nConnection: close\r\n\r\n")));
            }
            long total = 0;
            for (Future<Long> one : received) {
                long bytes = one.get(60, TimeUnit.SECONDS);
                assertTrue(bytes <= SIZE + HEAD_ROOM, "one answer is the object and its head, was " + bytes);
                total += bytes;
            }
            System.out.printf("40 parallel 32-range requests: %d bytes in %d ms%n", total,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every byte the server sends for {@code request} until it closes the connection. */
    private static long wireBytes(String request) throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                total += n;
                if (total > 2L * SIZE) {
                    return total;
                }
            }
            return total;
        }
    }

    // Overlapping and adjacent ranges are one stretch of the object: a single-part 206 of it.
    @Test
    void overlappingAndAdjacentRangesAreCoalescedIntoOne() throws Exception {
        RawHttpTest.Response response = get(RondoUnderTest.DOC, "Range: bytes=500-1999,0-999,2000-2999");

        assertEquals(206, response.status());
        assertEquals("bytes 0-2999/" + SIZE, response.headers().get("content-range"));
        assertArrayEquals(Arrays.copyOfRange(rondo.doc, 0, 3000), response.body());
    }

    // Ranges apart from each other still come back as parts, in the order asked.
    @Test
    void separateRangesStayPartsInTheOrderAsked() throws Exception {
        RawHttpTest.Response response = get(RondoUnderTest.DOC, "Range: bytes=5000-5099,0-99");

        assertEquals(206, response.status());
        assertTrue(response.headers().get("content-type").startsWith("multipart/byteranges"));
        String body = new String(response.body(), StandardCharsets.ISO_8859_1);
        assertTrue(body.indexOf("bytes 5000-5099/") < body.indexOf("bytes 0-99/"), body.substring(0, 200));
    }

    // Many one-byte ranges of a small object would cost more in part headers than the object: the whole object.
    @Test
    void manyTinyRangesGetTheWholeObjectWhenItIsSmallerThanTheirParts() throws Exception {
        RawHttpTest.Response response = get(RondoUnderTest.NOTE, "Range: bytes=0-0,2-2,4-4,6-6,8-8,10-10");

        assertEquals(200, response.status());
        assertArrayEquals(rondo.note, response.body());
    }

    // Slowloris: a header sent a byte at a time, each byte well within the idle timeout, is cut off with a 408.
    @Test
    void aHeaderDribbledInSlowerThanTheHeaderTimeoutGets408AndTheConnectionCloses() throws Exception {
        byte[] request = ("GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
            + "a".repeat(40) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        try (Socket socket = connect()) {
            ExecutorService dribble = Executors.newSingleThreadExecutor();
            long startNs = System.nanoTime();
            try {
                dribble.submit(() -> {
                    OutputStream out = socket.getOutputStream();
                    for (byte b : request) {
                        out.write(b);
                        out.flush();
                        Thread.sleep(HEADER_TIMEOUT_MS / 5);
                    }
                    return null;
                });
                RawHttpTest.Response response = RawHttpTest.read(socket.getInputStream(), false);
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

                assertEquals(408, response.status());
                assertEquals("close", response.headers().get("connection"));
                // The dribbler may still write after the server closed: the kernel then answers with a
                // reset rather than an end of stream. Either says the connection is closed.
                dribble.shutdownNow();
                assertTrue(closed(socket), "the connection is closed");
                assertTrue(tookMs >= HEADER_TIMEOUT_MS && tookMs < HEADER_TIMEOUT_MS + 1_000,
                    "answered once the header timeout passed, after " + tookMs + " ms");
                System.out.printf("a dribbled header was answered 408 after %d ms%n", tookMs);
            } finally {
                dribble.shutdownNow();
            }
        }
    }

    /** Whether the server has closed the connection: an end of stream, or a reset. */
    private static boolean closed(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read() == -1;
        } catch (java.net.SocketException reset) {
            return true;
        }
    }

    // A keep-alive connection may wait longer than the header timeout between requests: that is the idle timeout's.
    @Test
    void aKeepAliveConnectionMayWaitBetweenRequestsLongerThanTheHeaderTimeout() throws Exception {
        try (Socket socket = connect()) {
            String request = "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(200, RawHttpTest.read(socket.getInputStream(), false).status());
            Thread.sleep(HEADER_TIMEOUT_MS * 3 / 2);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            RawHttpTest.Response second = RawHttpTest.read(socket.getInputStream(), false);

            assertEquals(200, second.status());
            assertArrayEquals(rondo.note, second.body());
        }
    }

    // RFC 9112 3.2: an HTTP/1.1 request with no Host, or with two, is a bad request.
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        no Host        | GET /docs/note.txt HTTP/1.1\\r\\n\\r\\n
        two Hosts      | GET /docs/note.txt HTTP/1.1\\r\\nHost: a\\r\\nHost: b\\r\\n\\r\\n
        two Hosts 1.0  | GET /docs/note.txt HTTP/1.0\\r\\nHost: a\\r\\nHost: b\\r\\n\\r\\n
        a bad Host     | GET /docs/note.txt HTTP/1.1\\r\\nHost: a b/c\\r\\n\\r\\n
        """)
    void aRequestWithoutExactlyOneValidHostIsABadRequest(String what, String request) throws Exception {
        RawHttpTest.Response response = exchange(request.replace("\\r\\n", "\r\n"));

        assertEquals(400, response.status(), what);
    }

    // HTTP/1.0 had no Host: a 1.0 client without one is served.
    @Test
    void anHttp10RequestWithoutHostIsServed() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("GET " + RondoUnderTest.NOTE + " HTTP/1.0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
            RawHttpTest.Response response = RawHttpTest.read(socket.getInputStream(), false);

            assertEquals(200, response.status());
            assertArrayEquals(rondo.note, response.body());
        }
    }

    // A major version other than 1 is one this server does not speak: 505, answered as HTTP/1.1.
    @ParameterizedTest
    @CsvSource({"HTTP/9.9", "HTTP/2.0", "HTTP/0.9"})
    void anotherMajorVersionIsHttpVersionNotSupported(String version) throws Exception {
        RawHttpTest.Response response = exchange("GET " + RondoUnderTest.NOTE + " " + version
            + "\r\nHost: x\r\n\r\n");

        assertEquals(505, response.status());
    }

    // A refused request is answered in its turn: the answer pipelined before it arrives whole first.
    @Test
    void aRefusedRequestWaitsForTheAnswersPipelinedBeforeIt() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("GET " + RondoUnderTest.CLIP + " HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET " + RondoUnderTest.NOTE + " HTTP/9.9\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            RawHttpTest.Response first = RawHttpTest.read(socket.getInputStream(), false);
            RawHttpTest.Response second = RawHttpTest.read(socket.getInputStream(), false);

            assertEquals(200, first.status());
            assertArrayEquals(rondo.clip, first.body(), "the clip, read from the disk, whole");
            assertEquals(505, second.status());
        }
    }

    // A later HTTP/1 minor version is answered as HTTP/1.1 (RFC 9110 6.2), not echoed back.
    @Test
    void aLaterMinorVersionIsAnsweredAsHttp11() throws Exception {
        RawHttpTest.Response response = exchange("GET " + RondoUnderTest.NOTE + " HTTP/1.7\r\nHost: x\r\n\r\n");

        assertEquals(200, response.status());
        assertArrayEquals(rondo.note, response.body());
    }

    // RFC 9112 3.2.2: a proxy-style absolute-form target is served by its path.
    @Test
    void anAbsoluteFormTargetIsServedByItsPath() throws Exception {
        RawHttpTest.Response response = get("http://127.0.0.1:" + rondo.httpPort() + RondoUnderTest.NOTE);

        assertEquals(200, response.status());
        assertArrayEquals(rondo.note, response.body());
    }

    // A range starting beyond any length, even past 2^63, is valid syntax that no object satisfies: 416.
    @Test
    void aRangeStartingPastTwoToTheSixtyThirdIsUnsatisfiable() throws Exception {
        RawHttpTest.Response response = get(RondoUnderTest.DOC, "Range: bytes=99999999999999999999-");

        assertEquals(416, response.status());
        assertEquals("bytes */" + SIZE, response.headers().get("content-range"));
    }

    // Huge numbers elsewhere are valid too: a last position past the end is cut there, a huge suffix is all.
    @ParameterizedTest
    @CsvSource({"bytes=2999990-99999999999999999999", "bytes=-99999999999999999999"})
    void hugeEndsAndSuffixesAreCutAtTheObjectsEnd(String range) throws Exception {
        RawHttpTest.Response response = get(RondoUnderTest.DOC, "Range: " + range);

        assertEquals(206, response.status());
        int first = range.startsWith("bytes=-") ? 0 : 2_999_990;
        assertEquals("bytes " + first + "-" + (SIZE - 1) + "/" + SIZE, response.headers().get("content-range"));
        assertArrayEquals(Arrays.copyOfRange(rondo.doc, first, SIZE), response.body());
    }

    // A Range that is not valid syntax is ignored (RFC 9110 14.2): the whole object.
    @ParameterizedTest
    @CsvSource({"bytes=1-2-3", "bytes=x-", "bytes=99999999999999999999-99999999999999999998", "bytes=5-1"})
    void anInvalidRangeIsIgnored(String range) throws Exception {
        RawHttpTest.Response response = get(RondoUnderTest.NOTE, "Range: " + range);

        assertEquals(200, response.status());
        assertArrayEquals(rondo.note, response.body());
        assertNull(response.headers().get("content-range"));
    }
}

package io.rondo.systemtest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HTTP/1.1 as bytes on a socket: what a broken, hostile or pipelining client sends, and what it gets back. */
class RawHttpTest {

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 50_000);
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    /** A response as read off the socket: status, headers (lower-case names), body. */
    record Response(int status, Map<String, String> headers, byte[] body) {
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", rondo.httpPort());
        socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
        return socket;
    }

    private static void write(Socket socket, String request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Reads one response; {@code head} says it answers a HEAD (a length but no body). */
    static Response read(InputStream in, boolean head) throws IOException {
        String statusLine = line(in);
        assertNotNull(statusLine, "the server closed the connection without answering");
        assertTrue(statusLine.startsWith("HTTP/1.1 "), statusLine);
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new TreeMap<>();
        for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        int length = head || status == 304 ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        assertEquals(length, body.length, "the whole body before the connection ended");
        return new Response(status, headers, body);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1; b = in.read()) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    private Response exchange(String request) throws IOException {
        try (Socket socket = connect()) {
            write(socket, request);
            return read(socket.getInputStream(), false);
        }
    }

    // A client that is not speaking HTTP gets a 400, not silence.
    @Test
    void aMalformedRequestLineIsABadRequest() throws Exception {
        assertEquals(400, exchange("this is not http\r\n\r\n").status());
    }

    // A client with 17 KiB of headers (a cookie gone wild) is told why: 431.
    @Test
    void aHeaderBlockOver16KibIsRequestHeaderFieldsTooLarge() throws Exception {
        String request = "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(17 * 1024)
            + "\r\n\r\n";
        assertEquals(431, exchange(request).status());
    }

    // A link with a 9 KB path is refused as too long: 414.
    @Test
    void aRequestLineOver8KibIsUriTooLong() throws Exception {
        assertEquals(414, exchange("GET /" + "a".repeat(9 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n").status());
    }

    // A form that POSTs here learns which methods are allowed.
    @Test
    void aPostIsMethodNotAllowedWithAllow() throws Exception {
        Response response = exchange("POST " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
            + "\r\nabc");
        assertEquals(405, response.status());
        assertEquals("GET, HEAD", response.headers().get("allow"));
    }

    // A browser reuses its connection: both requests answered on one socket.
    @Test
    void keepAliveAnswersTwoRequestsOnOneConnection() throws Exception {
        try (Socket socket = connect()) {
            write(socket, "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n");
            Response first = read(socket.getInputStream(), false);
            write(socket, "GET " + RondoUnderTest.DOC + " HTTP/1.1\r\nHost: x\r\nRange: bytes=100-199\r\n\r\n");
            Response second = read(socket.getInputStream(), false);

            assertEquals(200, first.status());
            assertArrayEquals(rondo.note, first.body());
            assertEquals(206, second.status());
            assertArrayEquals(Arrays.copyOfRange(rondo.doc, 100, 200), second.body());
        }
    }

    // A pipelining client sends two GETs at once and gets both answers, in the order asked.
    @Test
    void twoPipelinedGetsAreAnsweredInOrder() throws Exception {
        try (Socket socket = connect()) {
            write(socket, "GET " + RondoUnderTest.DOC + " HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n");
            Response first = read(socket.getInputStream(), false);
            Response second = read(socket.getInputStream(), false);

            assertEquals(200, first.status());
            assertArrayEquals(rondo.doc, first.body(), "the large object first, whole");
            assertEquals(200, second.status());
            assertArrayEquals(rondo.note, second.body());
        }
    }

    // A pipelining client sends three requests at once and gets three answers, in the order asked.
    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (Socket socket = connect()) {
            write(socket, "GET " + RondoUnderTest.DOC + " HTTP/1.1\r\nHost: x\r\n\r\n"
                + "HEAD " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n");
            Response first = read(socket.getInputStream(), false);
            Response second = read(socket.getInputStream(), true);
            Response third = read(socket.getInputStream(), false);

            assertEquals(200, first.status());
            assertArrayEquals(rondo.doc, first.body(), "the large object first, whole");
            assertEquals(200, second.status());
            assertEquals(String.valueOf(rondo.note.length), second.headers().get("content-length"));
            assertEquals(200, third.status());
            assertArrayEquals(rondo.note, third.body());
        }
    }
}

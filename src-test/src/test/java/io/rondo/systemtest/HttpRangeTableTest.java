package io.rondo.systemtest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 9110 ranges and preconditions over a real socket, as a browser or a download manager sends
 * them, against one discrete object of known bytes: status, headers and the exact body of each.
 */
class HttpRangeTableTest {

    private static final int SIZE = 10_000;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, SIZE);
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    /** One row: what is asked, what must come back; {etag} and dates are filled in at run time. */
    private record Row(String method, Map<String, String> headers, int status, Map<String, String> expectedHeaders,
                       int[][] body) {
        @Override
        public String toString() {
            return method + " " + headers;
        }
    }

    private static Row row(String method, String[] headers, int status, String[] expected, int[][] body) {
        return new Row(method, pairs(headers), status, pairs(expected), body);
    }

    private static Row row(String method, String[] headers, int status, String[] expected, int[] first,
                           int[]... more) {
        int[][] body = new int[more.length + 1][];
        body[0] = first;
        System.arraycopy(more, 0, body, 1, more.length);
        return new Row(method, pairs(headers), status, pairs(expected), body);
    }

    private static Map<String, String> pairs(String... kv) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            map.put(kv[i], kv[i + 1]);
        }
        return map;
    }

    private static String[] h(String... kv) {
        return kv;
    }

    private static int[] bytes(int first, int last) {
        return new int[] {first, last};
    }

    private static final int[][] WHOLE = {bytes(0, SIZE - 1)};
    private static final int[][] NONE = {};
    /** A short explanation for a person; its wording is not part of the contract. */
    private static final int[][] ANY_TEXT = null;

    static Stream<Arguments> table() {
        String past = "Mon, 01 Jan 1990 00:00:00 GMT";
        return Stream.of(
            // A player asking for the first bytes gets exactly them.
            row("GET", h("Range", "bytes=0-99"), 206, h("Content-Range", "bytes 0-99/10000", "Content-Length", "100"),
                bytes(0, 99)),
            // A resumed download from the middle to the end.
            row("GET", h("Range", "bytes=9990-"), 206, h("Content-Range", "bytes 9990-9999/10000"), bytes(9990, 9999)),
            // A suffix range: the last 500 bytes (where many containers keep their index).
            row("GET", h("Range", "bytes=-500"), 206, h("Content-Range", "bytes 9500-9999/10000"), bytes(9500, 9999)),
            // A range running past the end is cut at the end, not refused.
            row("GET", h("Range", "bytes=9000-99999"), 206, h("Content-Range", "bytes 9000-9999/10000"),
                bytes(9000, 9999)),
            // A suffix longer than the object is the whole object, as a 206.
            row("GET", h("Range", "bytes=-20000"), 206, h("Content-Range", "bytes 0-9999/10000"), bytes(0, 9999)),
            // Several ranges come back as multipart/byteranges, in the order asked.
            row("GET", h("Range", "bytes=0-9,100-109,-5"), 206, h(), bytes(0, 9), bytes(100, 109),
                bytes(9995, 9999)),
            // A range starting past the end cannot be satisfied: 416 with the size, so the client can recover.
            row("GET", h("Range", "bytes=10000-20000"), 416, h("Content-Range", "bytes */10000"), ANY_TEXT),
            row("GET", h("Range", "bytes=20000-"), 416, h("Content-Range", "bytes */10000"), ANY_TEXT),
            // A zero-length suffix is unsatisfiable too.
            row("GET", h("Range", "bytes=-0"), 416, h("Content-Range", "bytes */10000"), ANY_TEXT),
            // A Range that does not parse, or in another unit, is ignored: the whole object.
            row("GET", h("Range", "bytes=abc"), 200, h("Content-Length", "10000"), WHOLE),
            row("GET", h("Range", "items=0-1"), 200, h("Content-Length", "10000"), WHOLE),
            // If-Range with a stale ETag: the object changed, so the whole new object, never a mixed splice.
            row("GET", h("Range", "bytes=0-9", "If-Range", "\"stale\""), 200, h("Content-Length", "10000"), WHOLE),
            // If-Range with the current ETag: the range.
            row("GET", h("Range", "bytes=0-9", "If-Range", "{etag}"), 206, h("Content-Range", "bytes 0-9/10000"),
                bytes(0, 9)),
            // A cache revalidating with the current ETag gets 304 and no body, and keeps its validator.
            row("GET", h("If-None-Match", "{etag}"), 304, h("ETag", "{etag}"), NONE),
            row("GET", h("If-None-Match", "\"other\", {etag}"), 304, h("ETag", "{etag}"), NONE),
            row("GET", h("If-None-Match", "*"), 304, h(), NONE),
            row("GET", h("If-None-Match", "\"other\""), 200, h("ETag", "{etag}"), WHOLE),
            // If-Modified-Since after the object's date (here: in the future) means unchanged: 304.
            row("GET", h("If-Modified-Since", "{future}"), 304, h(), NONE),
            row("GET", h("If-Modified-Since", past), 200, h("Content-Length", "10000"), WHOLE),
            // If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
            row("GET", h("If-None-Match", "\"other\"", "If-Modified-Since", "{future}"), 200, h(), WHOLE),
            // A failed If-Match is 412, not the object.
            row("GET", h("If-Match", "\"other\""), 412, h(), ANY_TEXT),
            row("GET", h("If-Match", "{etag}", "Range", "bytes=1-2"), 206, h("Content-Range", "bytes 1-2/10000"),
                bytes(1, 2)),
            row("GET", h("If-Unmodified-Since", past), 412, h(), ANY_TEXT),
            // HEAD ignores Range (range handling is defined for GET only): 200 with the whole length, no body.
            row("HEAD", h("Range", "bytes=0-9"), 200, h("Content-Length", "10000", "Accept-Ranges", "bytes"), NONE),
            row("HEAD", h("If-None-Match", "{etag}"), 304, h(), NONE)
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void answersAsRfc9110Says(Row row) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rondo.httpPort()
                + RondoUnderTest.DOC)).timeout(Duration.ofSeconds(10))
            .method(row.method(), HttpRequest.BodyPublishers.noBody());
        row.headers().forEach((name, value) -> request.header(name, fill(value)));

        HttpResponse<byte[]> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(row.status(), response.statusCode(), "status");
        row.expectedHeaders().forEach((name, value) ->
            assertEquals(fill(value), response.headers().firstValue(name).orElse(null), name));
        if (row.status() != 304 && !row.method().equals("HEAD")) {
            assertEquals(String.valueOf(response.body().length),
                response.headers().firstValue("Content-Length").orElse(null), "Content-Length is the body's length");
        }
        if (row.body() != ANY_TEXT) {
            assertArrayEquals(expectedBody(row, response), response.body(), "the exact bytes");
        }
    }

    private static byte[] expectedBody(Row row, HttpResponse<byte[]> response) {
        byte[] doc = rondo.doc;
        if (row.body().length <= 1) {
            return row.body().length == 0 ? new byte[0]
                : Arrays.copyOfRange(doc, row.body()[0][0], row.body()[0][1] + 1);
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        String boundary = type.substring(type.indexOf("boundary=") + "boundary=".length());
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int[] range : row.body()) {
            body.writeBytes(("\r\n--" + boundary + "\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes "
                + range[0] + "-" + range[1] + "/" + SIZE + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(Arrays.copyOfRange(doc, range[0], range[1] + 1));
        }
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return body.toByteArray();
    }

    private static String fill(String value) {
        return value.replace("{etag}", rondo.docObject.etag())
            .replace("{future}", DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).plusDays(1)));
    }
}

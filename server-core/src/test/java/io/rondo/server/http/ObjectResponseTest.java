package io.rondo.server.http;

import io.netty.handler.codec.http.HttpMethod;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.DiskSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An object's answer through the handler on an embedded channel, read from a real library's disks:
 * preconditions decided before any disk read, ranges and multipart cut from the disks' chunks.
 */
class ObjectResponseTest extends EmbeddedHttpTest {

    /** Three chunks' worth: the body comes in D-requests of at most one chunk. */
    private static final int SIZE = 2 * DiskSettings.DEFAULT_MAX_READ + 1000;

    private static byte[] bytes;
    private static MediaObject object;

    @BeforeAll
    static void ingest() throws Exception {
        bytes = library.ingest("/docs/big.bin", SIZE, 7);
        object = library.object("/docs/big.bin");
    }

    private void assertValidators(EmbeddedHttp.Answer answer) {
        assertEquals(object.etag(), answer.header("etag"));
        assertEquals("bytes", answer.header("accept-ranges"));
        assertTrue(answer.header("last-modified").endsWith(" GMT"), answer.header("last-modified"));
    }

    @Test
    void aWholeObjectComesChunkByChunkWithItsValidators() {
        EmbeddedHttp.Answer answer = http.get("/docs/big.bin");

        assertEquals(200, answer.status());
        assertArrayEquals(bytes, answer.body());
        assertEquals(String.valueOf(SIZE), answer.header("content-length"));
        assertEquals("application/octet-stream", answer.header("content-type"));
        assertValidators(answer);
        assertEquals(3, http.chunks.asked(), "one D-request per chunk");
    }

    @Test
    void aMatchingIfNoneMatchIs304WithoutABodyOrADiskRead() {
        EmbeddedHttp.Answer answer = http.get("/docs/big.bin", "If-None-Match", object.etag());

        assertEquals(304, answer.status());
        assertEquals(0, answer.body().length);
        assertValidators(answer);
        assertEquals(0, http.chunks.asked());
    }

    @Test
    void aFailedIfMatchIs412WithTheReason() {
        EmbeddedHttp.Answer answer = http.get("/docs/big.bin", "If-Match", "\"other\"");

        assertEquals(412, answer.status());
        assertEquals("412 Precondition Failed: a precondition failed\n", answer.text());
        assertValidators(answer);
        assertEquals(0, http.chunks.asked());
    }

    @Test
    void anUnsatisfiableRangeIs416WithTheLengthInContentRange() {
        EmbeddedHttp.Answer answer = http.get("/docs/big.bin", "Range", "bytes=" + SIZE + "-");

        assertEquals(416, answer.status());
        assertEquals("bytes */" + SIZE, answer.header("content-range"));
        assertEquals("416 Requested Range Not Satisfiable: no requested range is satisfiable\n", answer.text());
        assertEquals(0, http.chunks.asked());
    }

    @Test
    void oneRangeIs206WithItsBytesAcrossAChunkBoundary() {
        int first = DiskSettings.DEFAULT_MAX_READ - 10;
        EmbeddedHttp.Answer answer = http.get("/docs/big.bin", "Range", "bytes=" + first + "-" + (first + 99));

        assertEquals(206, answer.status());
        assertEquals("bytes " + first + "-" + (first + 99) + "/" + SIZE, answer.header("content-range"));
        assertEquals("application/octet-stream", answer.header("content-type"));
        assertArrayEquals(Arrays.copyOfRange(bytes, first, first + 100), answer.body());
        assertEquals("100", answer.header("content-length"));
    }

    @Test
    void severalRangesAreMultipartByterangesInTheOrderAsked() {
        EmbeddedHttp.Answer answer = http.get("/docs/big.bin", "Range", "bytes=-5,0-9");

        assertEquals(206, answer.status());
        String type = answer.header("content-type");
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        assertNull(answer.header("content-range"), "each part has its own");
        String boundary = type.substring(type.indexOf('=') + 1);
        String expected = "\r\n--" + boundary + "\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes "
            + (SIZE - 5) + "-" + (SIZE - 1) + "/" + SIZE + "\r\n\r\n" + latin1(SIZE - 5, SIZE)
            + "\r\n--" + boundary + "\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 0-9/" + SIZE
            + "\r\n\r\n" + latin1(0, 10) + "\r\n--" + boundary + "--\r\n";
        assertEquals(expected, new String(answer.body(), StandardCharsets.ISO_8859_1));
        assertEquals(String.valueOf(answer.body().length), answer.header("content-length"));
    }

    @Test
    void aStaleIfRangeGetsTheWholeObject() {
        EmbeddedHttp.Answer answer = http.get("/docs/big.bin", "Range", "bytes=0-9", "If-Range", "\"stale\"");

        assertEquals(200, answer.status());
        assertArrayEquals(bytes, answer.body());
    }

    @Test
    void aHeadSaysTheLengthAndReadsNothing() {
        EmbeddedHttp.Answer answer = http.exchange(EmbeddedHttp.request(HttpMethod.HEAD, "/docs/big.bin",
            "Range", "bytes=0-9"));

        assertEquals(200, answer.status(), "a HEAD ignores Range");
        assertEquals(String.valueOf(SIZE), answer.header("content-length"));
        assertEquals(0, answer.body().length);
        assertValidators(answer);
        assertEquals(0, http.chunks.asked());
    }

    private static String latin1(int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
    }
}

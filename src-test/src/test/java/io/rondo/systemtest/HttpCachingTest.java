package io.rondo.systemtest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a cache (a browser's, a proxy's; REDbot checks the same) is told by the HTTP port: the time
 * of every answer, that objects and the player's files are kept but asked about again before each
 * use, and validators on the pages Rondo makes, so a page asked about again is a 304 while its
 * folder is unchanged.
 */
class HttpCachingTest {

    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern(
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 10_000);
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    private static RawHttpTest.Response exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", rondo.httpPort())) {
            socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return RawHttpTest.read(socket.getInputStream(), request.startsWith("HEAD"));
        }
    }

    private static RawHttpTest.Response get(String target, String... headers) throws IOException {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        return exchange(request.append("\r\n").toString());
    }

    // RFC 9110 6.6.1: an origin server with a clock sends Date on every answer, refusals included.
    @Test
    void everyAnswerCarriesTheDateItWasSentAt() throws Exception {
        String etag = get(RondoUnderTest.NOTE).headers().get("etag");
        List<String> requests = List.of(
            "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n",
            "HEAD " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + etag + "\r\n\r\n",
            "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nRange: bytes=5-1\r\n\r\n",
            "GET /docs/ HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /docs HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /no/such/object HTTP/1.1\r\nHost: x\r\n\r\n",
            "DELETE /docs/note.txt HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /docs/note.txt HTTP/1.1\r\n\r\n");
        for (String request : requests) {
            long beforeSecond = Instant.now().getEpochSecond();
            RawHttpTest.Response response = exchange(request);
            long afterSecond = Instant.now().getEpochSecond();
            String date = response.headers().get("date");

            assertNotNull(date, "a Date on the " + response.status() + " to " + request.lines().findFirst().get());
            long sent = ZonedDateTime.parse(date, IMF_FIXDATE).toEpochSecond();
            assertTrue(sent >= beforeSecond && sent <= afterSecond, "the Date " + date + " is when it was sent");
        }
    }

    // An object may be replaced under its name at any time: a cache keeps it but asks again (a 304, no disk read).
    @Test
    void objectsAndThePlayersFilesAreRevalidatedBeforeEachUse() throws Exception {
        for (String target : List.of(RondoUnderTest.NOTE, RondoUnderTest.DOC, "/player/", "/player/index.html",
            "/player/player.js", "/player/player.css")) {
            RawHttpTest.Response response = get(target);

            assertEquals(200, response.status(), target);
            assertEquals("no-cache", response.headers().get("cache-control"), target);
            assertNotNull(response.headers().get("etag"), target);
            assertNotNull(response.headers().get("last-modified"), target);
            RawHttpTest.Response again = get(target, "If-None-Match: " + response.headers().get("etag"));
            assertEquals(304, again.status(), target + " asked about again");
            assertEquals("no-cache", again.headers().get("cache-control"), target);
        }
    }

    // A folder page has an ETag of its listing: asked again it is a 304, until the folder changes.
    @Test
    void aFolderPageIsRevalidatedByItsETagUntilTheFolderChanges() throws Exception {
        RawHttpTest.Response page = get("/docs/");
        String etag = page.headers().get("etag");

        assertEquals(200, page.status());
        assertEquals("no-cache", page.headers().get("cache-control"));
        assertNotNull(etag, "a folder page has a validator");
        RawHttpTest.Response unchanged = get("/docs/", "If-None-Match: " + etag);
        assertEquals(304, unchanged.status());
        assertEquals(etag, unchanged.headers().get("etag"));
        assertEquals(0, unchanged.body().length);

        rondo.ingest("/io/rondo/content/demo/about.txt", "/docs/about.txt", temp);
        RawHttpTest.Response changed = get("/docs/", "If-None-Match: " + etag);
        assertEquals(200, changed.status(), "a new object in the folder makes a new page");
        assertFalse(etag.equals(changed.headers().get("etag")));
        assertTrue(new String(changed.body(), StandardCharsets.UTF_8).contains("about.txt"));
    }

    // The player's object info is a page Rondo makes too, with the same validator.
    @Test
    void anObjectsInfoIsRevalidatedByItsETag() throws Exception {
        RawHttpTest.Response info = get("/player/info" + RondoUnderTest.CLIP);
        assertEquals(200, info.status());
        assertEquals(304, get("/player/info" + RondoUnderTest.CLIP, "If-None-Match: " + info.headers().get("etag"))
            .status());
    }
}

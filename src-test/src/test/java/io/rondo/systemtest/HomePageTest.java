package io.rondo.systemtest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a person sees first: the home page welcomes them above the library's listing, which leaves
 * the player's own files out, and the browser's tab gets Rondo's icon.
 */
class HomePageTest {

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 1000);
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    private static RawHttpTest.Response get(String target, String... headers) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", rondo.httpPort())) {
            socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
            StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: x\r\n");
            for (String header : headers) {
                request.append(header).append("\r\n");
            }
            socket.getOutputStream().write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            return RawHttpTest.read(socket.getInputStream(), false);
        }
    }

    @Test
    void theHomePageWelcomesAboveTheLibraryWithoutThePlayersFiles() throws Exception {
        RawHttpTest.Response home = get("/");
        String page = new String(home.body(), StandardCharsets.UTF_8);

        assertEquals(200, home.status());
        assertTrue(page.contains("Welcome to Rondo"), page);
        assertTrue(page.contains("href=\"/player/\""), "the welcome points to the player");
        assertTrue(page.contains(">docs/</a>") && page.contains("clip.webm"), "the library is listed");
        assertFalse(page.contains(">player/</a>"), "the player's folder is not the library's: " + page);
        assertFalse(page.contains("index.html"), "no front page of its own to point to");

        rondo.ingest("/io/rondo/content/demo/index.html", "/index.html", temp);
        String withFront = new String(get("/").body(), StandardCharsets.UTF_8);
        assertTrue(withFront.contains("<a href=\"/index.html\">index.html</a>"), withFront);
    }

    @Test
    void theBrowsersIconIsRondos() throws Exception {
        RawHttpTest.Response icon = get("/favicon.ico");
        byte[] shipped;
        try (var in = HomePageTest.class.getResourceAsStream("/io/rondo/server/http/favicon.ico")) {
            shipped = in.readAllBytes();
        }

        assertEquals(200, icon.status());
        assertEquals("image/vnd.microsoft.icon", icon.headers().get("content-type"));
        assertArrayEquals(shipped, icon.body());
        assertEquals("no-cache", icon.headers().get("cache-control"));
        assertEquals(304, get("/favicon.ico", "If-None-Match: " + icon.headers().get("etag")).status());
    }
}

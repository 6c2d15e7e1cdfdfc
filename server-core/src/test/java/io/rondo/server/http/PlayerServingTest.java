package io.rondo.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.content.PlayerFiles;
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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web player as the server offers it: its files in the library under /player/, kept current
 * at start, served as discrete data with the types a browser insists on; the clip details it
 * asks for; and the folder pages that lead a person to it.
 */
class PlayerServingTest {

    @TempDir
    static Path temp;

    private static Library library;
    private static DiskRuntime disks;
    private static HttpServer server;
    private static MediaObject clip;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void serve() throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        byte[] bytes;
        try (InputStream in = PlayerServingTest.class.getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            bytes = in.readAllBytes();
        }
        clip = library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("clip.webm"), bytes),
            "/videos/clip 1.webm", null, 0), c -> { });
        library.ingest().ingest(new IngestRequest(Files.writeString(temp.resolve("a.txt"), "text"), "/docs/a.txt",
            null, 0), c -> { });
        assertEquals(24, PlayerFiles.install(library).size(), "the player's twenty-four files go into a new library");
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock())).start();
        server = HttpServer.on(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks)
                .clock(SystemClocks.utc())
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
        disks.close();
        library.close();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path))
            .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    @Test
    void thePlayerIsInstalledOnceAndAgainOnlyWhereTheLibrarysCopyDiffers() throws Exception {
        assertEquals(List.of(), PlayerFiles.install(library), "a current copy is left alone");

        library.directory().delete("/player/player.js");
        Path stale = Files.writeString(temp.resolve("index.html"), "<p>an older player</p>");
        library.directory().delete("/player/index.html");
        library.ingest().ingest(new IngestRequest(stale, "/player/index.html", null, 0), c -> { });

        assertEquals(List.of("/player/index.html", "/player/player.js"), PlayerFiles.install(library),
            "a removed file and a changed file are put back");
        try (InputStream shipped = PlayerFiles.class.getResourceAsStream("/io/rondo/client/player/index.html")) {
            assertEquals(library.store().catalog().byName("/player/index.html").orElseThrow().etag(),
                io.rondo.content.ingest.IngestService.etagOf(shipped.readAllBytes()));
        }
    }

    @Test
    void thePlayersFolderIsItsPageAndItsScriptsComeAsJavaScript() throws Exception {
        HttpResponse<String> page = get("/player/?src=%2Fvideos%2Fclip+1.webm");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("content-type").orElseThrow().startsWith("text/html"));
        assertTrue(page.body().contains("<script type=\"module\" src=\"player.js\">"), "the page loads the player");
        assertTrue(page.headers().firstValue("etag").isPresent(), "the player is a stored object with an ETag");

        for (String script : List.of("/player/player.js", "/player/protocol.js")) {
            HttpResponse<String> js = get(script);
            assertEquals(200, js.statusCode(), script);
            assertTrue(js.headers().firstValue("content-type").orElseThrow().startsWith("text/javascript"),
                "browsers run a module only with a JavaScript type: " + js.headers().firstValue("content-type"));
        }
        assertEquals("text/css; charset=utf-8", get("/player/player.css").headers().firstValue("content-type")
            .orElseThrow());
    }

    @Test
    void aClipsDetailsAreJsonForThePlayer() throws Exception {
        HttpResponse<String> response = get("/player/info/videos/clip%201.webm");

        assertEquals(200, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        JsonNode info = new ObjectMapper().readTree(response.body());
        assertEquals("/videos/clip 1.webm", info.get("name").asText());
        assertEquals("continuous", info.get("kind").asText());
        assertEquals(clip.media().mseType(), info.get("mseType").asText());
        assertEquals(clip.media().durationNs(), info.get("durationNs").asLong());
        assertEquals(clip.media().fragments().size(), info.get("fragments").asInt());
        assertEquals(clip.media().fragments().stream().mapToLong(Fragment::length).max().orElseThrow(),
            info.get("peakFragmentBytes").asLong());
        assertEquals("/stream", info.get("streamPath").asText());
        assertFalse(info.has("hls"), "HLS carries no WebM");
        assertTrue(info.get("hlsUnavailable").asText().contains("MP4 copy"), info.toString());

        JsonNode document = new ObjectMapper().readTree(get("/player/info/docs/a.txt").body());
        assertEquals("discrete", document.get("kind").asText());
        assertFalse(document.has("durationNs"));

        HttpResponse<String> missing = get("/player/info/videos/nothing.webm");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("no object is named /videos/nothing.webm"), missing.body());
    }

    @Test
    void aClipsFolderEntryOpensThePlayerAndStillOffersTheFile() throws Exception {
        String page = get("/videos/").body();

        assertTrue(page.contains("href=\"/player/?src=%2Fvideos%2Fclip+1.webm\""), page);
        assertTrue(page.contains("href=\"/videos/clip%201.webm\" title=\"the file itself, over HTTP\">file</a>"), page);
        assertFalse(page.contains(">HLS</a>"), "a WebM clip has no HLS playlist to offer");
        String docs = get("/docs/").body();
        assertFalse(docs.contains("/player/"), "a document opens as itself: " + docs);
    }

    @Test
    void thePlayersFolderIsRondosOwn() {
        assertTrue(PlayerFiles.reserved("/player/x.js"));
        assertTrue(PlayerFiles.reserved("player//index.html"));
        assertFalse(PlayerFiles.reserved("/players/x.js"));
        assertFalse(PlayerFiles.reserved("/videos/player/x.webm"));
        assertThrows(IllegalArgumentException.class, () -> PlayerFiles.reserved("/a/../player/x"));
    }

    @Test
    void thePlayerSpeaksTheProtocolItsJavaCodecDefines() throws Exception {
        byte[] module;
        try (InputStream in = PlayerFiles.class.getResourceAsStream("/io/rondo/client/player/protocol.js")) {
            module = in.readAllBytes();
        }
        String text = new String(module, StandardCharsets.UTF_8);
        for (io.rondo.client.protocol.FrameType type : io.rondo.client.protocol.FrameType.values()) {
            assertTrue(text.contains(type.name() + ": 0x" + String.format("%02x", type.code())),
                "protocol.js gives " + type + " the code the Java codec gives it");
        }
        assertArrayEquals(module, get("/player/protocol.js").body().getBytes(StandardCharsets.UTF_8),
            "served as shipped, no build step");
    }
}

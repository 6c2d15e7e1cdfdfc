package io.rondo.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.StreamSupport;

import static io.rondo.systemtest.MediaTools.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The demo clip as HLS from {@code rondo serve}, to the clients people use: its playlists are
 * valid to Python's m3u8 ({@link PlaylistCheck}), ffmpeg reads every segment without an error and
 * as long as the clip, each segment and part is the stored copy's own bytes, a session's parts (its
 * segments, where a VOD playlist lists no parts) are answered from what its rounds read ahead and
 * never by the disks' D-requests ({@code rondo_hls_parts_total}), a session whose
 * client stops asking ends after {@code streams.clientTimeout} (2 s here) and frees its admission,
 * and hls.js plays the clip to its end in chromium without a stall. A WebM object is refused with
 * a reason that says how to make an MP4 copy.
 *
 * <p>ffmpeg, chromium and m3u8 are each needed by a part; each part is skipped, saying so, where its
 * tool is missing, unless {@code rondo.ffmpeg.required}, {@code rondo.browser.required} or
 * {@code rondo.m3u8.required} is set (as CI sets them).
 */
class HlsTest {

    private static final String CLIP = "videos/color-bars.mp4";
    private static final String WEBM = "videos/test-pattern.webm";
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(2);
    /** A frame of the clip (25 frames a second), in seconds: how far HLS's durations may be from the clip's. */
    private static final double FRAME_SECONDS = 1.0 / 25;
    private static final String MEMORY_PARTS = "rondo_hls_parts_total{source=\"memory\"";
    private static final String DISK_PARTS = "rondo_hls_parts_total{source=\"disk\"";

    @TempDir
    static Path temp;

    private static ServeProcess rondo;
    private static HlsHttp http;
    private static Optional<PlaylistCheck> check;
    private static byte[] clip;
    private static final NanoClock CLOCK = SystemClocks.nanoClock();
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void serve() throws Exception {
        Path config = Files.createDirectories(temp.resolve("config"));
        Files.writeString(config.resolve("rondo.yaml"), "streams:\n  clientTimeout: " + CLIENT_TIMEOUT.toSeconds()
            + "s\n");
        // The test JVM's rondo.config.dir (the repository's config/) is what RondoJvm hands on: this
        // server's is this test's, for as long as it takes to start.
        String configDir = System.getProperty(RondoConfig.CONFIG_DIR_PROPERTY);
        System.setProperty(RondoConfig.CONFIG_DIR_PROPERTY, config.toString());
        try {
            rondo = RondoServe.start(temp.resolve("data"), temp.resolve("serve.log"));
        } finally {
            if (configDir == null) {
                System.clearProperty(RondoConfig.CONFIG_DIR_PROPERTY);
            } else {
                System.setProperty(RondoConfig.CONFIG_DIR_PROPERTY, configDir);
            }
        }
        http = new HlsHttp(rondo.httpUrl(), rondo.adminUrl(), rondo.adminToken());
        check = PlaylistCheck.find(temp);
        clip = http.get(http.at(CLIP)).body();
    }

    @AfterAll
    static void stop() {
        if (rondo != null) {
            rondo.close();
        }
    }

    @Test
    void theClipsPlaylistsAreValidHlsAndLastAsLongAsTheClip() throws Exception {
        URI multivariantUri = http.at(CLIP + ".m3u8");
        HttpResponse<byte[]> response = http.get(multivariantUri);
        String multivariant = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), multivariant);
        assertEquals("application/vnd.apple.mpegurl", response.headers().firstValue("Content-Type").orElse("")
            .split(";")[0].strip());
        String cacheControl = response.headers().firstValue("Cache-Control").orElse("");
        assertTrue(cacheControl.contains("no-cache") || cacheControl.contains("no-store"),
            "a playlist admits a session: never cached " + response.headers().map());
        HlsPlaylist variants = HlsPlaylist.parse(multivariant);
        assertEquals(1, variants.variants().size(), multivariant);
        assertTrue(variants.variants().get(0).matches("color-bars\\.mp4\\.m3u8\\?session=[0-9a-f]{32}"),
            "the variant names the session: " + variants.variants().get(0));
        String codecs = HlsPlaylist.attributes(variants.tag("#EXT-X-STREAM-INF")).get("CODECS");
        assertTrue(codecs != null && codecs.contains("avc1.") && codecs.contains("mp4a.40.2"), multivariant);

        URI mediaUri = multivariantUri.resolve(variants.variants().get(0));
        String mediaText = http.text(mediaUri);
        HlsPlaylist media = HlsPlaylist.parse(mediaText);
        assertEquals("VOD", media.tag("#EXT-X-PLAYLIST-TYPE"), mediaText);
        assertTrue(media.endList(), mediaText);
        assertEquals(0, media.map().offset(), "the init segment is the stored copy's first bytes");
        assertEquals(media.map().length(), media.segments().get(0).range().offset(), "the first round follows it");
        for (HlsPlaylist.Segment segment : media.segments()) {
            assertTrue(segment.parts().isEmpty() || segment.parts().get(0).independent(),
                "a segment starts at a keyframe round: " + mediaText);
        }
        HlsPlaylist.Segment last = media.segments().get(media.segments().size() - 1);
        assertEquals(clip.length, last.range().offset() + last.range().length(), "every byte is addressed");
        assertEquals(durationSeconds(CLIP), media.seconds(), FRAME_SECONDS,
            "the segments' EXTINFs add up to the clip's duration, within a frame:\n" + mediaText);

        if (check.isPresent()) {
            JsonNode checked = check.get().valid(multivariant, 0);
            assertEquals("multivariant", checked.path("kind").asText());
            checked = check.get().valid(mediaText, clip.length);
            assertEquals("media", checked.path("kind").asText());
            assertEquals(media.segments().size(), checked.path("segments").size(), "m3u8 reads every segment");
        }
    }

    @Test
    void aWebmObjectHasNoPlaylistAndSaysHowToMakeAnMp4Copy() throws Exception {
        HttpResponse<byte[]> refused = http.get(http.at(WEBM + ".m3u8"));
        String reason = new String(refused.body(), StandardCharsets.UTF_8);
        assertEquals(415, refused.statusCode(), reason);
        assertTrue(reason.contains("MP4") && reason.contains("ffmpeg"), "the reason says to make an MP4 copy with "
            + "ffmpeg: " + reason);
        assertEquals(404, http.get(http.at("videos/no-such-clip.mp4.m3u8")).statusCode());
        JsonNode webm = info(WEBM);
        assertTrue(webm.path("hlsUnavailable").asText().contains("MP4"), "the player is told why: " + webm);
        assertTrue(webm.path("hls").isMissingNode(), webm.toString());
        assertEquals("/" + CLIP + ".m3u8", info(CLIP).path("hls").asText(), "the player is told where the HLS is");
    }

    @Test
    void ffmpegReadsEverySegmentWithoutAnErrorAndAsLongAsTheClip() throws Exception {
        MediaTools.requireFfmpeg("to read the HLS with it");
        String playlist = http.at(CLIP + ".m3u8").toString();
        assertEquals("", run("ffmpeg", "-nostdin", "-v", "error", "-i", playlist, "-c", "copy", "-f", "null", "-")
            .strip(), "ffmpeg reads the HLS without an error");
        double seconds = Double.parseDouble(run("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of",
            "csv=p=0", playlist).strip());
        assertEquals(durationSeconds(CLIP), seconds, FRAME_SECONDS, "ffprobe's duration of the HLS is the clip's");
    }

    @Test
    void everySegmentAndPartIsTheStoredCopysOwnBytes() throws Exception {
        URI mediaUri = session();
        HlsPlaylist media = HlsPlaylist.parse(http.text(mediaUri));
        assertBytes(mediaUri, media.map(), "the init segment");
        for (HlsPlaylist.Segment segment : media.segments()) {
            assertBytes(mediaUri, segment.range(), "a segment");
        }
        for (HlsPlaylist.Part part : media.parts()) {
            assertBytes(mediaUri, part.range(), "a part");
        }
    }

    @Test
    void aSessionsPartsAreAnsweredFromItsReadAheadNeverByDiskRequests() throws Exception {
        URI mediaUri = session();
        HlsPlaylist media = HlsPlaylist.parse(http.text(mediaUri));
        http.range(mediaUri, media.map());
        // A player of a VOD playlist asks for its parts where it lists them, else for its segments.
        List<HlsPlaylist.Range> ranges = media.parts().isEmpty()
            ? media.segments().stream().map(HlsPlaylist.Segment::range).toList()
            : media.parts().stream().map(HlsPlaylist.Part::range).toList();
        double memory = http.metric(MEMORY_PARTS);
        double disk = http.metric(DISK_PARTS);
        for (HlsPlaylist.Range range : ranges) {
            http.range(mediaUri, range);
        }
        assertEquals(ranges.size(), http.metric(MEMORY_PARTS) - memory, 0.0,
            "every part or segment came from the session's read-ahead");
        assertEquals(0.0, http.metric(DISK_PARTS) - disk, 0.0, "none was a D-request");
    }

    @Test
    @Timeout(60)
    void aSessionWhoseClientStopsAskingEndsAfterTheClientTimeout() throws Exception {
        // The other tests' sessions end within the client timeout of their last request.
        awaitHlsSessions(0, Duration.ofSeconds(20));
        URI mediaUri = session();
        http.text(mediaUri);
        long askedNs = CLOCK.nanoTime();
        List<JsonNode> sessions = hlsStreams();
        assertEquals(1, sessions.size(), "the session is a stream: " + sessions);
        assertEquals("/" + CLIP, sessions.get(0).path("object").asText());
        assertEquals(1.0, http.metric("rondo_hls_active"), 0.0);
        awaitHlsSessions(0, CLIENT_TIMEOUT.plusSeconds(8));
        long freedNs = CLOCK.nanoTime() - askedNs;
        assertTrue(freedNs >= CLIENT_TIMEOUT.toNanos() * 3 / 4, "the session lasted the client timeout, "
            + CLIENT_TIMEOUT + ", not " + freedNs / 1_000_000 + " ms");
        assertEquals(0.0, http.metric("rondo_hls_active"), 0.0);
    }

    @Test
    @Timeout(120)
    void hlsJsPlaysTheClipToItsEndWithoutAStall(TestInfo test) throws Exception {
        ChromeDriver browser = HeadlessChromium.launch(temp.resolve("profile"));
        HlsJsPage page = null;
        try {
            page = HlsJsPage.play(browser, rondo.httpUrl(), http.at(CLIP + ".m3u8").toString(), false);
            long giveUpNs = CLOCK.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (!Boolean.TRUE.equals(page.state().get("ended")) && page.list("errors").isEmpty()
                && CLOCK.nanoTime() - giveUpNs < 0) {
                // A real browser plays in real time: the test watches it, four times a second.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
            }
            assertEquals(List.of(), page.list("errors"), "hls.js reported errors:\n" + page.log());
            assertEquals(Boolean.TRUE, page.state().get("ended"), "hls.js played the clip to its end:\n" + page.log());
            assertEquals(List.of(), page.list("waiting"), "the video stalled:\n" + page.log());
            assertEquals(durationSeconds(CLIP), ((Number) page.state().get("currentTime")).doubleValue(), 0.25,
                page.log());
        } finally {
            HeadlessChromium.keepConsole(browser, test, "hls.js", page == null ? "(no page)" : page.log());
            browser.quit();
        }
    }

    /** A new session's media playlist URI, from the clip's multivariant playlist. */
    private static URI session() throws IOException, InterruptedException {
        URI multivariantUri = http.at(CLIP + ".m3u8");
        return multivariantUri.resolve(HlsPlaylist.parse(http.text(multivariantUri)).variants().get(0));
    }

    private static void assertBytes(URI mediaUri, HlsPlaylist.Range range, String what) throws Exception {
        assertArrayEquals(Arrays.copyOfRange(clip, (int) range.offset(), (int) (range.offset() + range.length())),
            http.range(mediaUri, range), what + " at " + range + " is the object's bytes there");
    }

    private static JsonNode info(String object) throws IOException, InterruptedException {
        return JSON.readTree(http.text(http.at("player/info/" + object)));
    }

    private static double durationSeconds(String object) throws IOException, InterruptedException {
        return info(object).path("durationNs").asLong() / 1e9;
    }

    private static List<JsonNode> hlsStreams() throws IOException, InterruptedException {
        return StreamSupport.stream(http.admin("/api/v1/streams").path("items").spliterator(), false)
            .filter(stream -> "hls".equals(stream.path("transport").asText())).toList();
    }

    /** Polls the admin API until {@code count} HLS sessions are listed, failing after {@code limit}. */
    private static void awaitHlsSessions(int count, Duration limit) throws IOException, InterruptedException {
        long giveUpNs = CLOCK.nanoTime() + limit.toNanos();
        List<JsonNode> sessions = hlsStreams();
        while (sessions.size() != count) {
            if (CLOCK.nanoTime() - giveUpNs > 0) {
                fail(count + " HLS sessions expected within " + limit.toSeconds() + " s: " + sessions);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            sessions = hlsStreams();
        }
    }
}

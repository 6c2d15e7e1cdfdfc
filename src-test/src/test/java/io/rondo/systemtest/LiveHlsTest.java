package io.rondo.systemtest;

import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.Publish;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A live recording as LL-HLS: ffmpeg publishes a source in real time (fragmented MP4, a keyframe
 * a second) to {@code rondo serve}, and while it records, its playlist is an EVENT playlist with
 * parts, a preload hint and blocking reloads, which a reload for the next part waits on until that
 * part is cut; hls.js in low-latency mode plays it in chromium without a stall, and the test
 * prints the live delay (a part's program date-time to hls.js having it), asserting nothing on it;
 * once the recording stops, the playlist of a session that kept reloading it ends: the same EVENT
 * playlist, with EXT-X-ENDLIST and every byte of the recording addressed.
 *
 * <p>Needs ffmpeg; hls.js needs chromium, the playlist check Python's m3u8 (see {@link HlsTest}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LiveHlsTest {

    private static final String NAME = "cams/hls-live.mp4";
    private static final int RECORDING_SECONDS = 40;
    private static final NanoClock CLOCK = SystemClocks.nanoClock();

    @TempDir
    static Path temp;

    private static ServeProcess rondo;
    private static HlsHttp http;
    private static Optional<PlaylistCheck> check;
    private static Process source;
    /** The media playlist of the session the test itself reads the recording's playlist in. */
    private static URI mediaUri;
    private static Thread publishing;
    private static Thread viewing;
    /** The viewer's playlist once the recording ended. */
    private static final AtomicReference<String> ENDED = new AtomicReference<>();
    private static final AtomicReference<Durable> LAST = new AtomicReference<>();
    private static final AtomicReference<Throwable> FAILED = new AtomicReference<>();

    @BeforeAll
    static void record() throws Exception {
        MediaTools.requireFfmpeg("to publish a live recording");
        Path data = temp.resolve("data");
        rondo = RondoServe.start(data, temp.resolve("serve.log"));
        http = new HlsHttp(rondo.httpUrl(), rondo.adminUrl(), rondo.adminToken());
        check = PlaylistCheck.find(temp);
        String token = Files.readString(data.resolve("rondo/publish.token")).trim();
        StreamClient client = StreamClient.connect(rondo.host(), rondo.streamPort());
        Publisher publisher = client.publish(NAME, Publish.MP4, 1_000_000, token);
        source = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
            "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t",
            String.valueOf(RECORDING_SECONDS), "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
            "-b:v", "300k", "-maxrate", "300k", "-bufsize", "300k", "-g", "25", "-c:a", "aac", "-f", "mp4",
            "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        publishing = new Thread(() -> publish(client, publisher), "hls-live-publisher");
        publishing.setDaemon(true);
        publishing.start();
        assertTrue(await(Duration.ofSeconds(30), () -> publisher.lastDurable() != null
            && publisher.lastDurable().fragments() >= 3), "three rounds of the recording are durable within 30 s");
        mediaUri = session();
        viewing = new Thread(LiveHlsTest::view, "hls-live-viewer");
        viewing.setDaemon(true);
        viewing.start();
    }

    @AfterAll
    static void stop() {
        if (source != null) {
            source.destroyForcibly();
        }
        if (rondo != null) {
            rondo.close();
        }
    }

    @Test
    @Order(1)
    void theRecordingIsAnEventPlaylistWithPartsWhoseBlockingReloadWaitsForTheNextPart() throws Exception {
        String text = http.text(mediaUri);
        HlsPlaylist media = HlsPlaylist.parse(text);
        assertEquals("EVENT", media.tag("#EXT-X-PLAYLIST-TYPE"), text);
        Map<String, String> control = HlsPlaylist.attributes(String.valueOf(media.tag("#EXT-X-SERVER-CONTROL")));
        assertEquals("YES", control.get("CAN-BLOCK-RELOAD"), text);
        assertNotNull(control.get("PART-HOLD-BACK"), text);
        assertNotNull(media.tag("#EXT-X-PART-INF"), text);
        assertNotNull(media.tag("#EXT-X-PROGRAM-DATE-TIME"), text);
        assertNotNull(media.preloadStart(), "a preload hint names the next part:\n" + text);
        assertTrue(media.parts().size() >= 3, text);
        assertTrue(!media.endList(), "the recording goes on:\n" + text);
        if (check.isPresent()) {
            check.get().valid(text, 0);
        }

        long sequence = Long.parseLong(Optional.ofNullable(media.tag("#EXT-X-MEDIA-SEQUENCE")).orElse("0"));
        // A reload for a part already listed is answered at once, and its connection goes on answering.
        assertEquals(200, http.get(URI.create(mediaUri + "&_HLS_msn=" + sequence + "&_HLS_part=0")).statusCode());
        try {
            http.text(mediaUri);
        } catch (HttpTimeoutException e) {
            fail("after a blocking reload answered at once, the next request on its connection was not answered", e);
        }

        long msn = sequence + media.segments().size();
        int part = media.pendingParts().size();
        long askedNs = CLOCK.nanoTime();
        HttpResponse<byte[]> blocked = http.get(URI.create(mediaUri + "&_HLS_msn=" + msn + "&_HLS_part=" + part));
        long waitedMs = (CLOCK.nanoTime() - askedNs) / 1_000_000;
        String grown = new String(blocked.body(), StandardCharsets.UTF_8);
        assertEquals(200, blocked.statusCode(), grown);
        HlsPlaylist next = HlsPlaylist.parse(grown);
        assertTrue(next.parts().size() > media.parts().size(), "the reload for part " + part + " of segment " + msn
            + " returned after " + waitedMs + " ms with it listed:\n" + grown);
        assertEquals(media.preloadStart(), next.parts().get(media.parts().size()).range().offset(),
            "the part cut is the one the preload hint named");
        assertTrue(waitedMs < 3 * 6_000, "answered within three target durations: " + waitedMs + " ms");
        System.out.println("LiveHlsTest: a blocking reload for the next part returned after " + waitedMs + " ms");

        // The last segment listed is the one being cut, if it has parts yet; a reload three past it is refused.
        long lastListed = sequence + next.segments().size() - (next.pendingParts().isEmpty() ? 1 : 0);
        askedNs = CLOCK.nanoTime();
        HttpResponse<byte[]> tooFar = http.get(URI.create(mediaUri + "&_HLS_msn=" + (lastListed + 3) + "&_HLS_part=0"));
        assertEquals(400, tooFar.statusCode(), "a reload three segments past the last listed, " + lastListed
            + ", is refused at once; after " + (CLOCK.nanoTime() - askedNs) / 1_000_000 + " ms it was answered:\n"
            + new String(tooFar.body(), StandardCharsets.UTF_8) + "\nto the playlist\n" + grown);
    }

    @Test
    @Order(2)
    @Timeout(120)
    void hlsJsPlaysTheRecordingLiveInLowLatencyModeWithoutAStall(TestInfo test) throws Exception {
        ChromeDriver browser = HeadlessChromium.launch(temp.resolve("profile"));
        // A viewer joins once the recording has a whole segment: before, hls.js finds no segment to
        // start from (its levelEmptyError) and retries.
        assertTrue(await(Duration.ofSeconds(20), () -> !HlsPlaylist.parse(reload(mediaUri)).segments().isEmpty()),
            "the recording's first segment is listed within 20 s");
        HlsJsPage page = null;
        try {
            HlsJsPage playing = HlsJsPage.play(browser, rondo.httpUrl(), http.at(NAME + ".m3u8").toString(), true);
            page = playing;
            assertTrue(await(Duration.ofSeconds(20), () -> Boolean.TRUE.equals(playing.state().get("playing"))
                || !playing.list("errors").isEmpty()), () -> "hls.js plays the recording:\n" + playing.log());
            long untilNs = CLOCK.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (CLOCK.nanoTime() - untilNs < 0 && playing.list("errors").isEmpty()) {
                // The recording and the browser go in real time: the test watches, four times a second.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
            }
            assertEquals(List.of(), page.list("errors"), "hls.js reported errors:\n" + page.log());
            assertEquals(List.of(), page.list("waiting"), "the live video stalled:\n" + page.log());
            List<Map<String, Object>> loads = page.list("loads");
            long[] delays = loads.stream().filter(load -> ((Number) load.get("part")).intValue() >= 0
                    && load.get("programDateTimeMs") != null)
                .mapToLong(load -> Math.round(((Number) load.get("receivedMs")).doubleValue()
                    - ((Number) load.get("programDateTimeMs")).doubleValue()))
                .sorted().toArray();
            assertTrue(delays.length >= 5, "hls.js loaded parts as they were cut: " + loads);
            System.out.printf("LL-HLS live delay p50 %d ms p99 %d ms (%d parts, each from its program date-time, "
                    + "its own length included, to hls.js having it)%n", percentile(delays, 0.50),
                percentile(delays, 0.99), delays.length);
        } finally {
            HeadlessChromium.keepConsole(browser, test, "hls.js", page == null ? "(no page)" : page.log());
            browser.quit();
        }
    }

    @Test
    @Order(3)
    @Timeout(RECORDING_SECONDS + 90)
    void thePlaylistEndsWhenTheRecordingDoes() throws Exception {
        viewing.join(TimeUnit.SECONDS.toMillis(RECORDING_SECONDS + 60));
        assertNull(FAILED.get(), () -> "the recording and its viewer ended cleanly: " + FAILED.get());
        assertNotNull(LAST.get(), "END came with the last DURABLE");
        String text = ENDED.get();
        assertNotNull(text, "the viewer reloaded its playlist after the recording ended");
        HlsPlaylist media = HlsPlaylist.parse(text);
        assertTrue(media.endList(), "the ended recording's playlist ends:\n" + text);
        assertNull(media.preloadStart(), "nothing more is hinted:\n" + text);
        assertEquals("EVENT", media.tag("#EXT-X-PLAYLIST-TYPE"), "an EVENT playlist keeps its type when it ends "
            + "(RFC 8216 6.2.1: it may only be appended to):\n" + text);
        byte[] recorded = http.get(http.at(NAME)).body();
        HlsPlaylist.Segment last = media.segments().get(media.segments().size() - 1);
        assertEquals(recorded.length, last.range().offset() + last.range().length(), "every byte is addressed");
        assertEquals(LAST.get().fragments(), media.seconds(), 1.0, "the segments last as long as the durable rounds:\n"
            + text);
        if (check.isPresent()) {
            check.get().valid(text, recorded.length);
        }
    }

    /**
     * A player's reloads of the recording's playlist, every two seconds while it records, in a
     * session of its own (that the reloads keep), and once more after it ended: that one is kept.
     */
    private static void view() {
        try {
            // Its own client, as a second player has: its connections are not the test's.
            HlsHttp player = new HlsHttp(rondo.httpUrl(), rondo.adminUrl(), rondo.adminToken());
            URI multivariant = player.at(NAME + ".m3u8");
            URI uri = multivariant.resolve(HlsPlaylist.parse(player.text(multivariant)).variants().get(0));
            String key = uri.getQuery();
            while (publishing.isAlive()) {
                if (!player.text(uri).contains(key)) {
                    throw new IllegalStateException("the viewer's session ended while it reloaded every 2 s");
                }
                publishing.join(2_000);
            }
            String ended = player.text(uri);
            if (!ended.contains(key)) {
                throw new IllegalStateException("the viewer's session ended with the recording:\n" + ended);
            }
            ENDED.set(ended);
        } catch (IOException | RuntimeException e) {
            FAILED.compareAndSet(null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends ffmpeg's output as the recording, in real time, then ends it and keeps the last DURABLE. */
    private static void publish(StreamClient client, Publisher publisher) {
        try (client; publisher; InputStream media = source.getInputStream()) {
            byte[] chunk = new byte[16 * 1024];
            for (int read = media.read(chunk); read > 0; read = media.read(chunk)) {
                publisher.send(chunk, 0, read);
            }
            LAST.set(publisher.finish(Duration.ofSeconds(30)));
        } catch (IOException | RuntimeException e) {
            FAILED.compareAndSet(null, e);
        }
    }

    private static URI session() throws IOException, InterruptedException {
        URI multivariant = http.at(NAME + ".m3u8");
        return multivariant.resolve(HlsPlaylist.parse(http.text(multivariant)).variants().get(0));
    }

    /** The playlist at {@code uri} as it is now. */
    private static String reload(URI uri) {
        try {
            return http.text(uri);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long percentile(long[] sorted, double p) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }

    /** Polls {@code condition} until it holds (true) or {@code limit} has passed (false). */
    private static boolean await(Duration limit, BooleanSupplier condition) {
        long giveUpNs = CLOCK.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (CLOCK.nanoTime() - giveUpNs > 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        return true;
    }
}

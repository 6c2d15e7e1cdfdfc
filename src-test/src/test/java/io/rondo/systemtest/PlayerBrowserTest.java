package io.rondo.systemtest;

import io.rondo.client.StreamClient;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.Redirect;
import io.rondo.client.protocol.Reject;
import io.rondo.scheduler.admission.AdmissionConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled player in a real browser: Debian's chromium, headless, driven through its own
 * chromium-driver by Selenium, against a whole Rondo on loopback. A person's path is followed
 * (folder page, clip link, player), and what they would notice is asserted: the picture moves
 * for seconds without a stall, a seek lands where the seek bar was clicked, a full server is
 * shown as such with a countdown, and a retry then plays. Screenshots of each go to
 * {@code target/browser-screenshots/}, with the browser's console beside them.
 *
 * <p>Where no chromium is installed the tests are skipped, saying so; {@code .ci/run} installs it
 * and sets {@code -Drondo.browser.required=true}, under which a missing chromium fails instead.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlayerBrowserTest {

    private static final String WEBM = "/media/clock-20s.webm";
    private static final String MP4 = "/media/clock-20s.mp4";
    private static final String PLAIN_MP4 = "/media/plain-20s.mp4";
    private static final String LONG_GOP = "/media/gop10-20s.webm";
    private static final String AUDIO = "/media/tone-20s.webm";
    private static final String MEDIA = "/io/rondo/systemtest/media/";
    private static final Duration START_LIMIT = Duration.ofSeconds(20);
    private static final Path SPEC = Path.of("..", "docs", "stream-protocol.md");

    @TempDir
    static Path temp;

    private RondoUnderTest rondo;
    private ChromeDriver browser;

    @BeforeAll
    void startServerAndBrowser() throws Exception {
        browser = HeadlessChromium.launch(temp.resolve("profile"));
        rondo = RondoUnderTest.start(temp.resolve("server"), 1024);
        rondo.ingest(MEDIA + "clock-20s.webm", WEBM, Files.createDirectories(temp.resolve("in")));
        rondo.ingest(MEDIA + "clock-20s.mp4", MP4, temp.resolve("in"));
        rondo.ingest(MEDIA + "plain-20s.mp4", PLAIN_MP4, temp.resolve("in"));
        rondo.ingest(MEDIA + "gop10-20s.webm", LONG_GOP, temp.resolve("in"));
        rondo.ingest(MEDIA + "tone-20s.webm", AUDIO, temp.resolve("in"));
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (rondo != null) {
            rondo.close();
        }
    }

    @AfterEach
    void keepTheConsole(TestInfo test) throws Exception {
        if (browser == null) {
            return;
        }
        HeadlessChromium.keepConsole(browser, test, "the player's own log", playerLog());
    }

    @Test
    @Order(1)
    void theProtocolModuleReadsAndWritesTheSpecificationsExamplesAsTheJavaCodecDoes() throws Exception {
        browser.get(base() + "/player/");
        Map<String, String> examples = hexExamples(Files.readString(SPEC, StandardCharsets.UTF_8));
        assertEquals(16, examples.size(), "one hex example per frame type in " + SPEC);
        for (Map.Entry<String, String> example : examples.entrySet()) {
            byte[] wire = HexFormat.of().parseHex(example.getValue());
            Frame frame = FrameCodec.decode(ByteBuffer.wrap(wire));
            String script = switch (example.getKey()) {
                case "OPEN" -> "return P.encodeOpen('demo/a.webm', 30e9, 2500000, 8388608);";
                case "PAUSE" -> "return P.encodePause();";
                case "RESUME" -> "return P.encodeResume();";
                case "SEEK" -> "return P.encodeSeek(95.5e9);";
                case "CLOSE" -> "return P.encodeClose();";
                case "REPORT" -> "return P.encodeReport(4e9, 2000000, 12345678);";
                case "PUBLISH" -> "return P.encodePublish('cams/door.mp4', 'mp4', 4000000, 'publish-token-01');";
                case "MEDIA" -> "return P.encodeMedia(new Uint8Array([0, 0, 0, 0x68, 0x6d, 0x6f, 0x6f, 0x66]));";
                default -> null;
            };
            if (script != null) {
                assertEquals(example.getValue(), runModule(script, null),
                    example.getKey() + ": the player's encoder writes the specification's bytes");
                assertEquals(example.getKey(), frame.type().name());
            } else {
                String decoded = runModule("const f = P.decode(input); return JSON.stringify(f, (k, v) => v "
                    + "instanceof Uint8Array ? Array.from(v).map(b => b.toString(16).padStart(2, '0')).join('') : v);",
                    example.getValue());
                assertEquals(javaView(frame), normalise(decoded), example.getKey()
                    + ": the player decodes the specification's bytes as the Java codec does");
            }
        }
        String fault = runModule("try { P.decode(input); return 'accepted'; } "
            + "catch (e) { return e.name + ' ' + e.code; }", "474554202f204854");
        assertEquals("ProtocolError 1", fault, "an HTTP request's bytes are a malformed frame");
    }

    @Test
    @Order(2)
    void aClipChosenOnItsFolderPagePlaysInThePlayerWithoutAStall() throws Exception {
        browser.get(base() + "/media/");
        WebElement link = browser.findElement(By.partialLinkText("clock-20s.webm"));
        assertTrue(link.getAttribute("href").contains("/player/?src="), "a clip's entry opens the player");
        link.click();
        awaitState("playing");
        assertEquals("0:20", text("time").replaceAll(".*/ ", ""), "the seek bar knows the clip's length");
        assertPlaysSmoothly("the WebM clip");
        assertEquals("0", text("stat-glitches"), "no fragment arrived after its deadline");
        assertTrue(text("stat-latency").contains("ms to picture"), "the initial latency is shown: "
            + text("stat-latency"));
        screenshot("webm-playing");
    }

    @Test
    @Order(3)
    void aClickOnTheSeekBarSeeksThroughTheServerAndPlayingGoesOnFromThere() throws Exception {
        if (!"playing".equals(state())) {
            browser.get(base() + "/player/?src=" + WEBM.replace("/", "%2F"));
            awaitState("playing");
        }
        WebElement bar = browser.findElement(By.id("seek"));
        int width = bar.getRect().getWidth();
        int x = (int) Math.round(width * 14.0 / 20.0 - width / 2.0);
        new Actions(browser).moveToElement(bar, x, 0).click().perform();
        Matcher asked = Pattern.compile("SEEK to (\\d+\\.\\d) s").matcher("");
        new WebDriverWait(browser, Duration.ofSeconds(5)).withMessage(() -> "no SEEK was sent:\n" + playerLog())
            .until(d -> asked.reset(playerLog()).find());
        double target = Double.parseDouble(asked.group(1));
        assertTrue(Math.abs(target - 14) < 1.5, "the click at 70 % of the bar asked for about 14 s, not " + target);
        awaitState("playing");
        double landed = currentTime();
        assertTrue(landed >= target - 0.05 && landed < target + 3, "playback went on from " + landed
            + " s after a seek to " + target + " s");
        int keyframe = (int) Math.floor(target);
        assertTrue(playerLog().contains("from " + keyframe + ".0") || playerLog().contains("from " + (keyframe - 1)
            + ".0"), "the server's first fragment after the seek holds the keyframe at or before the position "
            + "(a keyframe a second, each a few ms after the second):\n" + playerLog());
        assertPlaysSmoothly("the WebM clip after a seek");
        screenshot("webm-after-seek");
    }

    @Test
    @Order(4)
    void thePlayButtonPausesTheStreamOnTheServerAndResumesIt() throws Exception {
        browser.get(base() + "/player/?src=" + WEBM.replace("/", "%2F"));
        awaitState("playing");
        browser.findElement(By.id("play")).click();
        awaitState("paused");
        assertTrue(playerLog().contains("PAUSE"), "the server is told to stop sending:\n" + playerLog());
        double pausedAt = currentTime();
        new WebDriverWait(browser, Duration.ofSeconds(3)).until(d -> rondo.streams.activeStreams() == 1);
        screenshot("webm-paused");
        browser.findElement(By.id("play")).click();
        awaitState("playing");
        assertTrue(playerLog().contains("RESUME"), "the server is told to go on:\n" + playerLog());
        assertTrue(currentTime() >= pausedAt, "playing goes on from where it paused");
        assertPlaysSmoothly("the WebM clip after a pause");
    }

    @Test
    @Order(5)
    void aClientProfileTooSmallForTheClipIsRefusedWithoutARetry() {
        browser.get(base() + "/player/?src=" + WEBM.replace("/", "%2F") + "&rate=1k&buffer=1k");
        awaitState("rejected");
        assertEquals("The server cannot play this", text("overlay-title"));
        assertTrue(text("overlay-text").contains("too small for this clip"), text("overlay-text"));
        assertTrue(text("overlay-detail").contains("buffer of 1024 bytes"), text("overlay-detail"));
        assertEquals("", text("overlay-countdown"), "no countdown: retrying cannot help");
        assertTrue(browser.findElement(By.id("overlay-retry")).getAttribute("hidden") != null, "no retry offered");
        assertEquals("1.0 KiB/s, 1.0 KiB buffer (set by the address)", text("stat-profile"));
    }

    @Test
    @Order(6)
    void aFragmentedMp4ClipPlaysWhereTheBrowserDecodesH264() throws Exception {
        browser.get(base() + "/player/?src=" + MP4.replace("/", "%2F"));
        boolean h264 = (Boolean) browser.executeScript(
            "return MediaSource.isTypeSupported('video/mp4; codecs=\"avc1.42C00C, mp4a.40.2\"');");
        if (!h264) {
            awaitState("unsupported");
            assertTrue(text("overlay-text").contains("cannot decode"), "the player says why it cannot play");
            screenshot("mp4-unsupported");
            Assumptions.abort("this chromium cannot decode H.264 through Media Source Extensions; the player "
                + "said so, as asserted");
        }
        awaitState("playing");
        assertPlaysSmoothly("the fragmented MP4 clip");
        screenshot("mp4-playing");
    }

    @Test
    @Order(7)
    void aPlainMp4AsFfmpegWritesItPlaysWhereTheBrowserDecodesH264() throws Exception {
        browser.get(base() + "/player/?src=" + PLAIN_MP4.replace("/", "%2F"));
        boolean h264 = (Boolean) browser.executeScript(
            "return MediaSource.isTypeSupported('video/mp4; codecs=\"avc1.64000D, mp4a.40.2\"');");
        if (!h264) {
            awaitState("unsupported");
            Assumptions.abort("this chromium cannot decode H.264 through Media Source Extensions; the player "
                + "said so, as asserted");
        }
        awaitState("playing");
        assertPlaysSmoothly("the progressive MP4 (moov at the end, a keyframe every 10 s)");
        screenshot("plain-mp4-playing");
    }

    @Test
    @Order(8)
    void aClipWithTenSecondGopsPlaysWithoutAStallAndSeeksIntoAGop() throws Exception {
        browser.get(base() + "/player/?src=" + LONG_GOP.replace("/", "%2F"));
        awaitState("playing");
        assertPlaysSmoothly("the 10 s-GOP WebM clip");
        browser.executeScript("document.getElementById('seek').value = 14.5;"
            + "document.getElementById('seek').dispatchEvent(new Event('change'));");
        awaitState("playing");
        double at = currentTime();
        assertTrue(at >= 14.4 && at < 19, "playing goes on from the seek inside the second GOP, at " + at + " s:\n"
            + playerLog());
        assertPlaysSmoothly("the 10 s-GOP clip after a seek into a GOP");
        screenshot("long-gop-playing");
    }

    @Test
    @Order(9)
    void aFullServerIsShownWithItsReasonAndACountdownAndARetryThenPlays() throws Exception {
        browser.get("about:blank");
        rondo.awaitQuiet(Duration.ofSeconds(10));
        long chargedNs;
        try (StreamClient probe = StreamClient.connect("127.0.0.1", rondo.streamPort())) {
            probe.open(WEBM, 0, RondoUnderTest.PROFILE);
            chargedNs = rondo.disks.models().keySet().stream()
                .mapToLong(disk -> rondo.streams.admission().committedNs(disk)).max().orElseThrow();
        }
        assertTrue(chargedNs > 0, "an admitted stream is charged disk time");
        rondo.awaitQuiet(Duration.ofSeconds(10));
        AdmissionConfig oneStream = AdmissionConfig.defaults()
            .withDiscreteReserve(1 - 1.5 * chargedNs / AdmissionConfig.DEFAULT_ROUND_NS);
        try (RondoUnderTest full = RondoUnderTest.start(temp.resolve("full"), 1024, oneStream)) {
            full.ingest(MEDIA + "clock-20s.webm", WEBM, Files.createDirectories(temp.resolve("in-full")));
            AtomicBoolean reading = new AtomicBoolean(true);
            StreamClient holder = StreamClient.connect("127.0.0.1", full.streamPort());
            Accept accept = holder.open(WEBM, 0, RondoUnderTest.PROFILE);
            assertTrue(accept.streamId() > 0);
            Thread drain = new Thread(() -> {
                try {
                    for (Data data = holder.nextData(); data != null && reading.get(); data = holder.nextData()) {
                        assertTrue(data.payload().remaining() > 0);
                    }
                } catch (java.io.IOException e) {
                    reading.set(false);
                }
            }, "the stream that fills the server");
            drain.setDaemon(true);
            drain.start();

            browser.get("http://127.0.0.1:" + full.httpPort() + "/player/?src=" + WEBM.replace("/", "%2F"));
            awaitState("rejected");
            assertTrue(text("overlay-title").contains("busy"), "the title says the server is busy: "
                + text("overlay-title"));
            assertTrue(text("overlay-text").contains("no time left"), "the reason is given: " + text("overlay-text"));
            String countdown = text("overlay-countdown");
            assertTrue(countdown.matches("Trying again in \\d+ s"), "a retry countdown is shown: " + countdown);
            int seconds = Integer.parseInt(countdown.replaceAll("\\D", ""));
            assertTrue(seconds >= 1 && seconds <= 21, "the retry waits for the running stream's end, about "
                + "20 s, not " + seconds + " s");
            screenshot("server-full");

            reading.set(false);
            holder.close();
            full.awaitQuiet(Duration.ofSeconds(10));
            browser.findElement(By.id("overlay-retry")).click();
            awaitState("playing");
            assertTrue(browser.findElement(By.id("overlay")).getAttribute("hidden") != null,
                "the message is gone once the stream plays");
            screenshot("server-full-retried");
        }
    }

    // ----- the browser -----


    @Test
    @Order(10)
    void anAudioOnlyClipPlaysInTheAudioLayoutWithoutAVideoBox() throws Exception {
        browser.get(base() + "/player/?src=" + WEBM.replace("/", "%2F"));
        awaitState("playing");
        assertEquals(Boolean.FALSE, browser.executeScript(
            "return document.getElementById('stage').classList.contains('audio-only');"), "a clip with a picture");

        browser.get(base() + "/player/?src=" + AUDIO.replace("/", "%2F"));
        awaitState("playing");
        assertEquals(Boolean.TRUE, browser.executeScript(
            "return document.getElementById('stage').classList.contains('audio-only');"),
            "/player/info says audio/webm: the audio layout");
        assertEquals("none", browser.executeScript(
            "return getComputedStyle(document.getElementById('video')).display;"), "no video box");
        long height = ((Number) browser.executeScript(
            "return document.getElementById('stage').getBoundingClientRect().height;")).longValue();
        assertTrue(height > 0 && height <= 160, "a bar of controls, not a 16:9 box: " + height + " px");
        assertEquals("1", browser.executeScript(
            "return getComputedStyle(document.getElementById('controls')).opacity;"), "the controls stay in view");
        assertPlaysSmoothly("the audio-only clip");
        screenshot("audio-only-playing");
    }

    /**
     * An iPhone has no MediaSource, only a ManagedMediaSource: here chromium's MediaSource under that
     * name, whose streaming events and evictions the test fires as Safari would.
     */
    @Test
    @Order(11)
    void onAManagedMediaSourceThePlayerFollowsItsStreamingEventsAndFetchesWhatItEvictsAgain() throws Exception {
        Object script = browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
            "window.ManagedMediaSource = class extends MediaSource {"
                + "  constructor() { super(); window.managedSource = this; } };"
                + "delete window.MediaSource;")).get("identifier");
        try {
            browser.get(base() + "/player/?src=" + WEBM.replace("/", "%2F"));
            awaitState("playing");
            assertTrue(playerLog().contains("ManagedMediaSource: the browser says when to fetch"), playerLog());
            assertEquals(Boolean.TRUE, browser.executeScript("return document.getElementById('video')"
                + ".disableRemotePlayback;"), "no HLS alternative for a WebM clip: remote playback is off");

            browser.executeScript("window.managedSource.dispatchEvent(new Event('endstreaming'));");
            assertTrue(playerLog().contains("PAUSE: the browser holds enough"), playerLog());
            assertEquals(1, rondo.streams.activeStreams(), "the paused stream keeps its admission");
            browser.executeScript("window.managedSource.dispatchEvent(new Event('startstreaming'));");
            assertTrue(playerLog().contains("RESUME: the browser wants more"), playerLog());
            assertPlaysSmoothly("the WebM clip through a ManagedMediaSource");

            browser.executeScript("const buffer = window.managedSource.sourceBuffers[0];"
                + "const event = new Event('bufferedchange');"
                + "event.removedRanges = buffer.buffered;"
                + "buffer.dispatchEvent(event);");
            assertTrue(playerLog().contains("the browser evicted media from"), playerLog());
            assertTrue(playerLog().matches("(?s).*evicted media from (\\d+\\.\\d) s.*SEEK to \\1 s.*"),
                "what the browser evicted under the playing position is asked for with SEEK:\n" + playerLog());
            awaitState("playing");
            assertPlaysSmoothly("the WebM clip after an eviction under its position");
            screenshot("managed-media-source-playing");

            browser.get(base() + "/player/?src=" + MP4.replace("/", "%2F"));
            if (!(Boolean) browser.executeScript(
                "return ManagedMediaSource.isTypeSupported('video/mp4; codecs=\"avc1.42C00C, mp4a.40.2\"');")) {
                Assumptions.abort("this chromium cannot decode H.264: the MP4 clip's AirPlay source is not tried");
            }
            awaitState("playing");
            assertEquals(List.of("", "application/vnd.apple.mpegurl " + base() + MP4 + ".m3u8"),
                browser.executeScript("return Array.from(document.querySelectorAll('#video source'))"
                    + ".map(s => s.type ? s.type + ' ' + s.src : '');"),
                "the stream's ManagedMediaSource first, then the HLS playlist AirPlay can play");
            assertEquals(Boolean.FALSE, browser.executeScript("return document.getElementById('video')"
                + ".disableRemotePlayback;"), "remote playback stays on beside the HLS source");
            assertPlaysSmoothly("the MP4 clip through a ManagedMediaSource");
        } finally {
            browser.executeCdpCommand("Page.removeScriptToEvaluateOnNewDocument", Map.of("identifier", script));
        }
    }

    /**
     * An older iPhone has no MediaSource of either kind but plays HLS itself, as this chromium says
     * it does: the player gives the video element the clip's playlist, which the server admits as
     * a session like a stream, and the element plays it; a clip HLS cannot carry says why.
     */
    @Test
    @Order(12)
    void withoutAnyMediaSourceTheBrowserPlaysTheClipsHlsPlaylistItself() throws Exception {
        Object script = browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
            Map.of("source", "delete window.MediaSource;")).get("identifier");
        try {
            browser.get(base() + "/player/?src=" + WEBM.replace("/", "%2F"));
            if (!"maybe".equals(browser.executeScript("return document.getElementById('video')"
                + ".canPlayType('application/vnd.apple.mpegurl');"))) {
                awaitState("unsupported");
                assertTrue(text("overlay-text").contains("does not play HLS itself"), text("overlay-text"));
                Assumptions.abort("this chromium does not play HLS itself; the player said so, as asserted");
            }
            awaitState("unsupported");
            assertTrue(text("overlay-text").contains("which the server does not offer for this one: "
                + WEBM + " is WEBM, which HLS cannot carry"), "the server's reason: " + text("overlay-text"));

            browser.get(base() + "/player/?src=" + MP4.replace("/", "%2F"));
            new WebDriverWait(browser, START_LIMIT, Duration.ofMillis(100))
                .until(d -> List.of("playing", "error").contains(state()));
            assertEquals(base() + MP4 + ".m3u8", browser.executeScript(
                "return document.getElementById('video').src;"));
            assertTrue(playerLog().contains("it plays " + MP4 + ".m3u8 itself, as HLS"), playerLog());
            assertTrue(playerLog().contains("the stats show only its position, buffer and stalls"), playerLog());
            assertPlaysSmoothly("the MP4 clip's HLS playlist in the video element");
            screenshot("native-hls-playing");
        } finally {
            browser.executeCdpCommand("Page.removeScriptToEvaluateOnNewDocument", Map.of("identifier", script));
        }
    }

    private String base() {
        return "http://127.0.0.1:" + rondo.httpPort();
    }

    private String state() {
        return (String) browser.executeScript("return document.getElementById('stage').dataset.state;");
    }

    private double currentTime() {
        return ((Number) browser.executeScript("return document.getElementById('video').currentTime;"))
            .doubleValue();
    }

    private String text(String id) {
        return (String) browser.executeScript("return document.getElementById(arguments[0]).textContent;", id);
    }

    private String playerLog() {
        try {
            Object log = browser.executeScript("const l = document.getElementById('log'); "
                + "return l ? Array.from(l.children).map(i => i.textContent).join('\\n') : '';");
            return String.valueOf(log);
        } catch (RuntimeException e) {
            return "(no player log: " + e.getMessage() + ")";
        }
    }

    private void awaitState(String wanted) {
        try {
            new WebDriverWait(browser, START_LIMIT, Duration.ofMillis(100)).until(d -> wanted.equals(state()));
        } catch (TimeoutException e) {
            throw new AssertionError("the player did not reach '" + wanted + "' within " + START_LIMIT
                .toSeconds() + " s; it is '" + state() + "'. Its log:\n" + playerLog(), e);
        }
    }

    /**
     * Watches four seconds of playback: the state stays "playing", the position never goes back
     * and moves at least 2.5 s, and no stall is counted.
     */
    private void assertPlaysSmoothly(String what) throws InterruptedException {
        double first = currentTime();
        double last = first;
        long started = System.nanoTime();
        while (System.nanoTime() - started < Duration.ofSeconds(4).toNanos()) {
            // The sleep is the observation: a real browser plays in real time, sampled five times a second.
            Thread.sleep(200);
            double now = currentTime();
            assertEquals("playing", state(), what + " left 'playing' at " + now + " s:\n" + playerLog());
            assertTrue(now >= last, what + " went back from " + last + " to " + now);
            last = now;
        }
        assertTrue(last - first >= 2.5, what + " advanced only " + (last - first) + " s in 4 s:\n" + playerLog());
        assertEquals("0", text("stat-stalls"), what + " stalled:\n" + playerLog());
    }

    /** True if the media playlist of {@code name} carries Low-Latency HLS's EXT-X-PART-INF. */
    private void screenshot(String name) throws Exception {
        HeadlessChromium.screenshot(browser, name);
    }

    /** Runs {@code body} with the player's protocol module as P and {@code input} as an ArrayBuffer. */
    private String runModule(String body, String inputHex) {
        Object result = browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
            + "const hex = arguments[0];"
            + "import('/player/protocol.js').then(P => {"
            + "  const input = hex ? new Uint8Array(hex.match(/../g).map(h => parseInt(h, 16))).buffer : null;"
            + "  const run = new Function('P', 'input', arguments[1]);"
            + "  const out = run(P, input);"
            + "  done(out instanceof ArrayBuffer ? Array.from(new Uint8Array(out)).map(b => b.toString(16)"
            + "    .padStart(2, '0')).join('') : out);"
            + "}).catch(e => done('error: ' + e));", inputHex, body);
        return String.valueOf(result);
    }

    /** The hex example of each frame type on the specification page, by its heading. */
    static Map<String, String> hexExamples(String spec) {
        Map<String, String> examples = new LinkedHashMap<>();
        Matcher block = Pattern.compile("### (\\w+)\\s*\\n(?:(?!\\n###).)*?```hex\\n(.*?)```",
            Pattern.DOTALL).matcher(spec);
        while (block.find()) {
            String hex = block.group(2).lines().map(line -> line.split("\\|")[0].replace(" ", ""))
                .collect(Collectors.joining());
            examples.put(block.group(1), hex);
        }
        return examples;
    }

    /** A server frame's fields as the player's decoder names them, from the Java codec. */
    private static String javaView(Frame frame) {
        if (frame instanceof Accept a) {
            return "ACCEPT streamId=" + a.streamId() + " fragmentDurationNs=" + a.fragmentDurationNs()
                + " bitsPerSecond=" + a.bitsPerSecond() + " codecs=" + a.codecs() + " initSegment="
                + hex(a.initSegment()) + " live=" + a.live();
        } else if (frame instanceof Reject r) {
            return "REJECT reason=" + r.reason().code() + " retryAfterSeconds=" + r.retryAfterSeconds() + " message="
                + r.message();
        } else if (frame instanceof Data d) {
            return "DATA sequence=" + d.sequence() + " fragmentIndex=" + d.fragmentIndex() + " presentationNs="
                + d.presentationNs() + " deadlineNs=" + d.deadlineNs() + " discontinuity=" + d.discontinuity()
                + " fragment=" + hex(d.payload());
        } else if (frame instanceof End) {
            return "END";
        } else if (frame instanceof ErrorFrame e) {
            return "ERROR code=" + e.code() + " message=" + e.message();
        } else if (frame instanceof Durable d) {
            return "DURABLE fragments=" + d.fragments() + " durableNs=" + d.durableNs() + " bytesReceived="
                + d.bytesReceived();
        } else if (frame instanceof Live l) {
            return "LIVE recordedNs=" + l.recordedNs() + " durableNs=" + l.durableNs() + " ended=" + l.ended();
        } else if (frame instanceof Redirect r) {
            return "REDIRECT reason=" + r.reason().code() + " target=" + r.target();
        }
        throw new AssertionError("not a server frame: " + frame);
    }

    /**
     * The JSON of a decoded frame, or the Java view, as "TYPE k=v ..." with the fields both know,
     * in a fixed order, so the two can be compared as strings.
     */
    private static String normalise(String text) {
        if (!text.startsWith("{")) {
            return text;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        Matcher field = Pattern.compile("\"(\\w+)\":(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}]+)").matcher(text);
        while (field.find()) {
            String value = field.group(2);
            fields.put(field.group(1), value.startsWith("\"") ? value.substring(1, value.length() - 1) : value);
        }
        String type = fields.remove("type");
        List<String> known = switch (type) {
            case "ACCEPT" -> List.of("streamId", "fragmentDurationNs", "bitsPerSecond", "codecs", "initSegment",
                "live");
            case "REJECT" -> List.of("reason", "retryAfterSeconds", "message");
            case "DATA" -> List.of("sequence", "fragmentIndex", "presentationNs", "deadlineNs", "discontinuity",
                "fragment");
            case "ERROR" -> List.of("code", "message");
            case "DURABLE" -> List.of("fragments", "durableNs", "bytesReceived");
            case "LIVE" -> List.of("recordedNs", "durableNs", "ended");
            case "REDIRECT" -> List.of("reason", "target");
            default -> List.of();
        };
        StringBuilder out = new StringBuilder(type);
        for (String name : known) {
            out.append(' ').append(name).append('=').append(fields.get(name));
        }
        return out.toString();
    }

    private static String hex(ByteBuffer bytes) {
        ByteBuffer view = bytes.duplicate();
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        return HexFormat.of().formatHex(copy);
    }
}

package io.rondo.systemtest;

import io.rondo.server.launch.ServeProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The record page and the player in a real browser against {@code rondo serve}: chromium's fake
 * camera and microphone are published from the record page over the WebSocket binding, with the
 * publish token pasted into it, and a second window watches the recording while it grows, as a
 * person would: the player shows LIVE, its position advances for seconds without a stall, and
 * stopping the recording ends it cleanly with what was durable. Screenshots and both pages' logs go
 * to {@code target/browser-screenshots/}.
 */
class LiveBrowserTest {

    private static final String NAME = "cams/browser.webm";
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    private ServeProcess rondo;
    private ChromeDriver browser;
    private String recorderWindow;
    private String viewerWindow;

    @AfterEach
    void stop(TestInfo test) throws Exception {
        if (browser != null) {
            String logs = "record page:\n" + log(recorderWindow) + "\nplayer:\n" + log(viewerWindow);
            HeadlessChromium.keepConsole(browser, test, "the pages' own logs", logs);
            browser.quit();
        }
        if (rondo != null) {
            rondo.close();
        }
    }

    @Test
    @Timeout(180)
    void theRecordPagePublishesTheCameraAndASecondWindowWatchesItLive() throws Exception {
        browser = HeadlessChromium.launch(temp.resolve("profile"), "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream", "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows");
        Path data = temp.resolve("data");
        rondo = RondoServe.start(data, temp.resolve("serve.log"));
        String token = Files.readString(data.resolve("rondo/publish.token")).trim();

        browser.get(rondo.httpUrl() + "/player/index.html");
        String record = browser.findElement(By.cssSelector("a.record-link")).getAttribute("href");
        assertTrue(record.endsWith("/player/record.html"), "the player links to the record page: " + record);
        browser.get(record);
        recorderWindow = browser.getWindowHandle();
        browser.findElement(By.id("name")).clear();
        browser.findElement(By.id("name")).sendKeys(NAME);
        browser.findElement(By.id("token")).sendKeys(token);
        browser.findElement(By.id("start")).click();
        await("the record page is recording and the server says rounds are durable", () -> {
            return "recording".equals(text("state")) && Integer.parseInt(text("fragments")) >= 3;
        });
        assertTrue(text("durable").contains(" s)"), "the durable media time is shown: " + text("durable"));
        HeadlessChromium.screenshot(browser, "record-page-recording");
        String watch = browser.findElement(By.id("watch")).getAttribute("href");
        assertTrue(watch.endsWith("/player/?src=%2F" + NAME.replace("/", "%2F")), watch);

        browser.switchTo().newWindow(WindowType.WINDOW);
        viewerWindow = browser.getWindowHandle();
        browser.get(watch);
        await("the player plays the recording", () -> "playing".equals(state()));
        assertEquals(Boolean.TRUE, browser.executeScript("return window.rondoPlayer.connection.accept.live;"),
            "ACCEPT says the object is being recorded");
        assertTrue(browser.findElement(By.id("live-badge")).isDisplayed(), "ACCEPT said LIVE: the badge shows");
        double first = currentTime();
        double last = first;
        long started = System.nanoTime();
        while (System.nanoTime() - started < Duration.ofSeconds(6).toNanos()) {
            // The sleep is the observation: a real browser plays in real time, sampled five times a second.
            Thread.sleep(200);
            double now = currentTime();
            assertEquals("playing", state(), "the player left 'playing' at " + now + " s:\n" + log(viewerWindow));
            assertTrue(now >= last, "playback went back from " + last + " to " + now);
            last = now;
        }
        assertTrue(last - first >= 4, "playback advanced only " + (last - first) + " s in 6 s:\n"
            + log(viewerWindow));
        assertEquals("0", text("stat-stalls"), "the live recording stalled:\n" + log(viewerWindow));
        HeadlessChromium.screenshot(browser, "player-watching-live");

        browser.get(watch + "&behind=4");
        await("the player plays 4 s behind the live edge", () -> "playing".equals(state()));
        assertTrue(log(viewerWindow).contains("OPEN /" + NAME + " from live, 4.0 s behind the edge"),
            log(viewerWindow));
        await("the delay behind live is shown", () -> text("live-delay").startsWith("\u22120:0"));
        int delay = Integer.parseInt(text("live-delay").substring(4));
        assertTrue(delay >= 3 && delay <= 7, "about 4 s behind the edge: " + text("live-delay"));
        HeadlessChromium.screenshot(browser, "player-timeshifted");

        browser.switchTo().window(recorderWindow);
        browser.findElement(By.id("stop")).click();
        await("the server ended the recording with END", () -> "ended".equals(text("state")));
        assertTrue(log(recorderWindow).contains("END: "), log(recorderWindow));
        HeadlessChromium.screenshot(browser, "record-page-ended");
        assertAKeyframeEveryRoundOrTwo(rondo.httpUrl() + "/" + NAME);
    }

    /**
     * The recording, as its HTTP download gives it, has a video keyframe at least every two seconds
     * (the record page asks MediaRecorder for one a round), so a viewer joins near the live edge.
     */
    private void assertAKeyframeEveryRoundOrTwo(String url) throws Exception {
        if (RondoUnderTest.onPath("ffprobe").isEmpty()) {
            System.out.println("LiveBrowserTest: no ffprobe here; the recording's keyframes are not counted");
            return;
        }
        Path copy = temp.resolve("recorded.webm");
        try (InputStream in = URI.create(url).toURL().openStream()) {
            Files.copy(in, copy);
        }
        Process probe = new ProcessBuilder("ffprobe", "-v", "error", "-select_streams", "v", "-show_entries",
            "packet=pts_time,flags", "-of", "csv=p=0", copy.toString()).redirectErrorStream(true).start();
        String packets = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0, packets);
        List<Double> keyframes = packets.lines().filter(line -> line.contains("K"))
            .map(line -> Double.parseDouble(line.substring(0, line.indexOf(',')))).toList();
        double last = packets.lines().mapToDouble(line -> Double.parseDouble(line.substring(0, line.indexOf(','))))
            .max().orElse(0);
        assertTrue(last > 4, "seconds of video recorded: " + last);
        double gap = 0;
        for (int i = 1; i < keyframes.size(); i++) {
            gap = Math.max(gap, keyframes.get(i) - keyframes.get(i - 1));
        }
        gap = Math.max(gap, last - keyframes.get(keyframes.size() - 1));
        assertTrue(gap <= 2.1, "the longest stretch without a keyframe is " + gap + " s; keyframes at " + keyframes);
    }

    private void await(String what, Supplier<Boolean> condition) {
        try {
            new WebDriverWait(browser, LIMIT, Duration.ofMillis(100)).until(d -> condition.get());
        } catch (TimeoutException e) {
            throw new AssertionError(what + ": not within " + LIMIT.toSeconds() + " s. The page's log:\n"
                + log(browser.getWindowHandle()), e);
        }
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

    /** The log list of the page in {@code window}, one line an entry. */
    private String log(String window) {
        if (window == null) {
            return "(not opened)";
        }
        try {
            String current = browser.getWindowHandle();
            browser.switchTo().window(window);
            Object log = browser.executeScript("const l = document.getElementById('log'); "
                + "return l ? Array.from(l.children).map(i => i.textContent).join('\\n') : '';");
            browser.switchTo().window(current);
            return String.valueOf(log);
        } catch (RuntimeException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}

package io.rondo.systemtest;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.launch.ServeProcess;
import org.junit.jupiter.api.AfterAll;
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
import org.openqa.selenium.Dimension;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin dashboard in a real browser (headless chromium, as {@link PlayerBrowserTest} drives
 * the player) against a real {@code rondo serve} with a stream running: the page asks for the
 * admin token and asks again for a wrong one; with the right one it draws the disk's slack line
 * round after round, lists the stream, and its End button, clicked twice, ends it: the stream's
 * client gets ERROR 0x0104 ENDED_BY_OPERATOR and the table empties. Screenshots go to
 * {@code target/browser-screenshots/}, with the browser's console beside them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserTest {

    private static final String CLIP = "/media/clock-20s.webm";
    private static final int ENDED_BY_OPERATOR = 0x0104;
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @TempDir
    static Path temp;

    private ChromeDriver browser;
    private ServeProcess rondo;

    @BeforeAll
    void startServerAndBrowser() throws Exception {
        browser = HeadlessChromium.launch(temp.resolve("profile"));
        browser.manage().window().setSize(new Dimension(1280, 1300));
        Path data = temp.resolve("data");
        Path clip = temp.resolve("clock-20s.webm");
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/systemtest/media/clock-20s.webm")) {
            Files.copy(in, clip);
        }
        try (Library library = Library.open(RondoConfig.defaults(), data, SystemClocks.utc())) {
            library.ingest().ingest(new IngestRequest(clip, CLIP, null, 0), c -> { });
        }
        rondo = RondoServe.start(data, temp.resolve("serve.txt"));
    }

    @AfterAll
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (rondo != null) {
            rondo.close();
        }
    }

    @AfterEach
    void keepTheConsole(TestInfo test) throws Exception {
        if (browser != null && rondo != null) {
            HeadlessChromium.keepConsole(browser, test, "what rondo serve printed", rondo.printed());
        }
    }

    @Test
    @Order(1)
    void theDashboardAsksForTheTokenAndAgainWhenTheServerRefusesIt() throws Exception {
        browser.get(rondo.adminUrl() + "/admin/");
        awaitShown("signin");
        signIn("not-the-token");
        awaitShown("signin");
        assertEquals("The server refused that token.", text("signin-message"));
        assertTrue(hidden("app"), "nothing of the server is shown without a token");
        screenshot("dashboard-token-refused");
    }

    @Test
    @Order(2)
    void withTheTokenItDrawsTheSlackLineListsTheStreamAndItsEndButtonEndsIt() throws Exception {
        browser.get(rondo.adminUrl() + "/admin/");
        awaitShown("signin");
        signIn(rondo.adminToken());
        awaitShown("app");

        try (StreamClient client = StreamClient.connect("127.0.0.1", rondo.streamPort())) {
            Accept accept = client.open(CLIP, 0, RondoUnderTest.PROFILE);
            CompletableFuture<StreamErrorException> ended = CompletableFuture.supplyAsync(drain(client));

            int drawn = awaitInt("the chart draws the disk's rounds", this::slackPointsDrawn, 2);
            awaitInt("the chart draws each new round", this::slackPointsDrawn, drawn + 1);
            assertEquals("Live", text("live"), "the rounds come live, from the events");
            await("the slack line dips below the round length while the stream's fragments are read",
                () -> lowestSlackMs() < 1000);

            String row = "#streams-body tr[data-stream='" + accept.streamId() + "']";
            await("the stream is listed", () -> !browser.findElements(By.cssSelector(row)).isEmpty());
            assertEquals(CLIP, browser.findElement(By.cssSelector(row + " td.object")).getText());
            assertTrue(browser.findElement(By.cssSelector(row + " td.client")).getText().endsWith("(tcp)"));
            screenshot("dashboard-live");

            WebElement end = browser.findElement(By.cssSelector(row + " button.end"));
            end.click();
            assertEquals("Confirm end", end.getText(), "one click only asks again");
            assertTrue(!ended.isDone(), "the stream runs until the end is confirmed");
            end.click();

            StreamErrorException error = ended.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(ENDED_BY_OPERATOR, error.error().code(), "the client is told why: " + error.getMessage());
            await("the table empties", () -> browser.findElements(By.cssSelector("#streams-body tr")).isEmpty()
                && !hidden("streams-empty"));
            assertTrue(text("streams-status").startsWith("Ended stream " + accept.streamId()), text("streams-status"));
            screenshot("dashboard-stream-ended");
        }
    }

    /** Reads the stream's fragments until the server ends it; the ERROR that ended it. */
    private static Supplier<StreamErrorException> drain(StreamClient client) {
        return () -> {
            try {
                for (Data data = client.nextData(); data != null; data = client.nextData()) {
                    assertTrue(data.payload().remaining() > 0);
                }
                throw new AssertionError("the clip played to its END before the operator ended it");
            } catch (StreamErrorException e) {
                return e;
            } catch (IOException e) {
                throw new AssertionError("the stream broke: " + e.getMessage(), e);
            }
        };
    }

    private void signIn(String token) {
        browser.findElement(By.id("token")).sendKeys(token);
        browser.findElement(By.id("signin-submit")).click();
    }

    private String text(String id) {
        return (String) browser.executeScript("return document.getElementById(arguments[0]).textContent;", id);
    }

    private boolean hidden(String id) {
        return (Boolean) browser.executeScript("return document.getElementById(arguments[0]).hidden;", id);
    }

    private void awaitShown(String id) {
        await(id + " is shown", () -> !hidden(id));
    }

    private void await(String what, Supplier<Boolean> condition) {
        try {
            new WebDriverWait(browser, LIMIT, Duration.ofMillis(100)).until(d -> condition.get());
        } catch (TimeoutException e) {
            throw new AssertionError("within " + LIMIT.toSeconds() + " s, " + what + " did not happen; the page's "
                + "problem line: '" + text("problem") + "', its live state: '" + text("live") + "'", e);
        }
    }

    /** The points the slack chart's lines hold, as the page counts them when it draws. */
    private int slackPointsDrawn() {
        return Integer.parseInt(browser.findElement(By.id("slack-chart")).getAttribute("data-points"));
    }

    /** The lowest slack of the disk's rounds on the chart, as its legend gives it. */
    private int lowestSlackMs() {
        Matcher lowest = Pattern.compile("lowest (-?\\d+) ms").matcher(text("slack-legend"));
        return lowest.find() ? Integer.parseInt(lowest.group(1)) : Integer.MAX_VALUE;
    }

    /** Waits until value() is at least least; returns it. */
    private int awaitInt(String what, Supplier<Integer> value, int least) {
        await(what + " (" + least + " or more)", () -> value.get() >= least);
        return value.get();
    }

    private void screenshot(String name) throws IOException {
        HeadlessChromium.screenshot(browser, name);
    }
}

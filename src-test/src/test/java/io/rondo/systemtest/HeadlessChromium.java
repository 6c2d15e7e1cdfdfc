package io.rondo.systemtest;

import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's chromium, headless, driven through its own chromium-driver by Selenium, for the tests
 * of Rondo's pages in a real browser. Where no chromium is installed a test that asks for one is
 * skipped, saying so; {@code .ci/run} installs it and sets {@code -Drondo.browser.required=true},
 * under which a missing chromium fails instead. {@code -Drondo.chromium} and
 * {@code -Drondo.chromedriver} name other binaries.
 */
final class HeadlessChromium {

    /** Where the browser tests leave their screenshots and the browser's console, for people to look at. */
    static final Path SHOTS = Path.of("target", "browser-screenshots");

    private HeadlessChromium() {
    }

    /**
     * A new browser with its profile in {@code profile}, its console kept, and {@code more} switches
     * (a fake camera, say); skips the test where there is none.
     */
    static ChromeDriver launch(Path profile, String... more) {
        Optional<Path> chromium = installed(System.getProperty("rondo.chromium"), "/usr/bin/chromium",
            "/usr/bin/chromium-browser");
        Optional<Path> driver = installed(System.getProperty("rondo.chromedriver"), "/usr/bin/chromedriver");
        String missing = "no chromium here (chromium: " + chromium.map(Path::toString).orElse("missing")
            + ", chromedriver: " + driver.map(Path::toString).orElse("missing") + "): install Debian's chromium "
            + "and chromium-driver (.ci/run does) to run the browser test";
        if (Boolean.getBoolean("rondo.browser.required")) {
            assertTrue(chromium.isPresent() && driver.isPresent(), missing);
        }
        assumeTrue(chromium.isPresent() && driver.isPresent(), missing);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.get().toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--mute-audio", "--autoplay-policy=no-user-gesture-required",
            "--window-size=1280,800", "--user-data-dir=" + profile.toAbsolutePath());
        options.addArguments(more);
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.get().toFile())
            .usingAnyFreePort().withSilent(true).build();
        return new ChromeDriver(service, options);
    }

    /**
     * Writes what the pages wrote to the browser's console since the last call, then {@code more}
     * under {@code heading}, to {@code SHOTS/TEST-console.txt} for the test that just ran.
     */
    static void keepConsole(ChromeDriver browser, TestInfo test, String heading, String more) throws IOException {
        List<String> lines = new ArrayList<>();
        try {
            for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
                lines.add(entry.getLevel() + " " + entry.getMessage());
            }
        } catch (RuntimeException e) {
            lines.add("(the browser's console could not be read: " + e.getMessage() + ")");
        }
        lines.add("--- " + heading + " ---");
        lines.add(more);
        Files.createDirectories(SHOTS);
        Files.write(SHOTS.resolve(test.getTestMethod().orElseThrow().getName() + "-console.txt"), lines);
    }

    /** Saves what the browser shows as {@code SHOTS/NAME.png}. */
    static void screenshot(ChromeDriver browser, String name) throws IOException {
        Files.createDirectories(SHOTS);
        Files.write(SHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    private static Optional<Path> installed(String override, String... candidates) {
        return Stream.concat(Stream.ofNullable(override), Stream.of(candidates)).map(Path::of)
            .filter(Files::isExecutable).findFirst();
    }
}

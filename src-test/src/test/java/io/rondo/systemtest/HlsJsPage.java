package io.rondo.systemtest;

import org.openqa.selenium.chrome.ChromeDriver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The vendored hls.js playing a playlist in headless chromium, as a web page on a device without
 * native HLS plays it: a page of the server's own origin (so hls.js's requests are same-origin, as
 * on a site that serves its videos) is given hls.js and {@code hls-test-page.js}, which start it
 * and keep what a viewer would notice in {@code window.hlsTest}.
 */
final class HlsJsPage {

    private final ChromeDriver browser;

    private HlsJsPage(ChromeDriver browser) {
        this.browser = browser;
    }

    /**
     * Opens a page on {@code httpUrl}'s origin and starts hls.js on {@code playlist} there.
     *
     * @param lowLatency hls.js's {@code lowLatencyMode}: parts, preload hints and blocking reloads
     */
    static HlsJsPage play(ChromeDriver browser, String httpUrl, String playlist, boolean lowLatency)
        throws IOException {
        // Any address of the origin will do; this one is a 404 page, with nothing of its own running.
        browser.get(httpUrl + "hls.js-test-page");
        browser.executeScript("for (const source of arguments) { const s = document.createElement('script'); "
            + "s.textContent = source; (document.head || document.documentElement).appendChild(s); }",
            resource("/hls.js/hls.min.js"), resource("hls-test-page.js"));
        HlsJsPage page = new HlsJsPage(browser);
        assertEquals(Boolean.TRUE, browser.executeScript("return window.startHlsTest(arguments[0], arguments[1]);",
            playlist, lowLatency), "hls.js says this chromium can play HLS (Media Source Extensions)");
        return page;
    }

    /** What the page noticed so far: {@code playing}, {@code ended}, {@code waiting}, {@code errors}, ... */
    @SuppressWarnings("unchecked")
    Map<String, Object> state() {
        return (Map<String, Object>) browser.executeScript("return window.hlsTest;");
    }

    /** The list {@code key} of {@link #state()}: the {@code waiting} positions, {@code errors}, {@code loads}. */
    @SuppressWarnings("unchecked")
    <T> List<T> list(String key) {
        return (List<T>) state().get(key);
    }

    /** The page's log and hls.js's version, for a failure's message. */
    String log() {
        Map<String, Object> state = state();
        return "hls.js " + state.get("version") + ", at " + state.get("currentTime") + " s of " + state.get("duration")
            + ":\n" + String.join("\n", this.<String>list("log"));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = HlsJsPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

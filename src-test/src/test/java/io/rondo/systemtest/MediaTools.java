package io.rondo.systemtest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * ffmpeg and ffprobe as the system tests run them: where they are missing a test that needs them
 * is skipped, saying so, unless {@code rondo.ffmpeg.required} is set (as CI sets it).
 */
final class MediaTools {

    private MediaTools() {
    }

    /** Skips the calling test, saying it needs them {@code to} do something, where ffmpeg or ffprobe is missing. */
    static void requireFfmpeg(String to) {
        boolean present = RondoUnderTest.onPath("ffmpeg").isPresent() && RondoUnderTest.onPath("ffprobe").isPresent();
        if (Boolean.getBoolean("rondo.ffmpeg.required") && !present) {
            fail("ffmpeg and ffprobe are required (rondo.ffmpeg.required) but not installed");
        }
        assumeTrue(present, "ffmpeg is not installed: install ffmpeg " + to);
    }

    /** Runs {@code command}, asserting it ends within two minutes with exit 0; returns what it printed. */
    static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " finished");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + out);
        return out;
    }
}

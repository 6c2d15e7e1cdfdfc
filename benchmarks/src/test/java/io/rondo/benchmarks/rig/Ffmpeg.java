package io.rondo.benchmarks.rig;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** ffmpeg, where installed: tests that make media with it skip without it, unless -Drondo.ffmpeg.required=true. */
public final class Ffmpeg {

    private Ffmpeg() {
    }

    /** Skips the calling test, saying why, where ffmpeg is not installed; fails it where ffmpeg is required. */
    public static void assumeInstalled(String what) {
        boolean installed;
        try {
            installed = new ProcessBuilder("ffmpeg", "-version").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (IOException e) {
            installed = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            installed = false;
        }
        if (!installed && Boolean.getBoolean("rondo.ffmpeg.required")) {
            fail("ffmpeg is required (-Drondo.ffmpeg.required=true) but not installed: " + what);
        }
        assumeTrue(installed, "ffmpeg is not installed: " + what + " skipped");
    }
}

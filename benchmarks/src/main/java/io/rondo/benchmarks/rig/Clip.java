package io.rondo.benchmarks.rig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A clip as people have them, made by ffmpeg for the stream clients: H.264 640x360 at 25 fps in a
 * plain MP4 at a capped bit rate with a long GOP (ten seconds), which Rondo remuxes into
 * round-sized fragments at ingest. It is made once per parameters in the work folder and reused.
 */
public final class Clip {

    private static final long MAKE_LIMIT_S = 600;

    private Clip() {
    }

    /**
     * The clip {@code folder/clip-BITSk-SECONDSs.mp4}, made if missing.
     *
     * @param bitsPerSecond the video's bit rate, also its cap
     * @param seconds its length
     * @throws IOException if ffmpeg is missing or fails (its output is in the message)
     */
    public static Path make(Path folder, long bitsPerSecond, int seconds) throws IOException {
        Files.createDirectories(folder);
        Path clip = folder.resolve(String.format(Locale.ROOT, "clip-%dk-%ds.mp4", bitsPerSecond / 1000, seconds));
        if (Files.isRegularFile(clip) && Files.size(clip) > 0) {
            return clip;
        }
        Path partial = folder.resolve(clip.getFileName() + ".partial.mp4");
        Path log = folder.resolve("ffmpeg.log");
        String rate = Long.toString(bitsPerSecond);
        List<String> command = List.of("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
            "testsrc2=size=640x360:rate=25", "-t", Integer.toString(seconds), "-c:v", "libx264", "-preset",
            "veryfast", "-b:v", rate, "-maxrate", rate, "-bufsize", Long.toString(bitsPerSecond * 2), "-g", "250",
            "-pix_fmt", "yuv420p", partial.toString());
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IOException("ffmpeg is needed to make the stream clients' clip (apt-get install ffmpeg): "
                + e.getMessage(), e);
        }
        try {
            if (!process.waitFor(MAKE_LIMIT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("ffmpeg took over " + MAKE_LIMIT_S + " s to make " + clip);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while ffmpeg made " + clip, e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("ffmpeg failed to make " + clip + ":\n" + Files.readString(log));
        }
        Files.move(partial, clip);
        return clip;
    }
}

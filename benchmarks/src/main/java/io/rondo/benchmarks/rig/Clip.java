package io.rondo.benchmarks.rig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Clips as people have them, made by ffmpeg: for the stream clients, H.264 640x360 at 25 fps in a
 * plain MP4 at a capped bit rate with a long GOP (ten seconds), which Rondo remuxes into
 * round-sized fragments at ingest; for the publishers, a live encoder's fragmented MP4. Each is made
 * once per parameters in the work folder and reused.
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
        String rate = Long.toString(bitsPerSecond);
        return madeOnce(folder.resolve(String.format(Locale.ROOT, "clip-%dk-%ds.mp4", bitsPerSecond / 1000, seconds)),
            partial -> List.of("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
            "testsrc2=size=640x360:rate=25", "-t", Integer.toString(seconds), "-c:v", "libx264", "-preset",
            "veryfast", "-b:v", rate, "-maxrate", rate, "-bufsize", Long.toString(bitsPerSecond * 2), "-g", "250",
            "-pix_fmt", "yuv420p", partial.toString()));
    }

    /**
     * A constant-bit-rate clip, {@code folder/cbr-BITSk-SECONDSs.mp4}, made if missing: H.264
     * 640x360 at 25 fps with a keyframe every fifth of a second, its bit rate held by x264's CBR
     * over a buffer of half a second, alone in a plain MP4, so that its round-sized fragments (a
     * round opens at a keyframe) are all about {@code bitsPerSecond} times the round where the
     * round is a multiple of 200 ms.
     *
     * @throws IOException if ffmpeg is missing or fails (its output is in the message)
     */
    public static Path makeConstant(Path folder, long bitsPerSecond, int seconds) throws IOException {
        String rate = Long.toString(bitsPerSecond);
        return madeOnce(folder.resolve(String.format(Locale.ROOT, "cbr-%dk-%ds.mp4", bitsPerSecond / 1000, seconds)),
            partial -> List.of("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
            "testsrc2=size=640x360:rate=25", "-t", Integer.toString(seconds), "-c:v", "libx264", "-preset",
            "veryfast", "-x264-params", "nal-hrd=cbr", "-b:v", rate, "-minrate", rate, "-maxrate", rate, "-bufsize",
            Long.toString(bitsPerSecond / 2), "-g", "5", "-keyint_min", "5", "-sc_threshold", "0", "-pix_fmt",
            "yuv420p", partial.toString()));
    }

    /**
     * An audio clip, {@code folder/audio-BITSk-SECONDSs.mp4}, made if missing: a tone in AAC at
     * {@code bitsPerSecond}, alone in a plain MP4, for papers/004's audio clients.
     *
     * @throws IOException if ffmpeg is missing or fails (its output is in the message)
     */
    public static Path makeAudio(Path folder, long bitsPerSecond, int seconds) throws IOException {
        return madeOnce(folder.resolve(String.format(Locale.ROOT, "audio-%dk-%ds.mp4", bitsPerSecond / 1000,
            seconds)), partial -> List.of("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000", "-t", Integer.toString(seconds), "-c:a", "aac", "-b:a",
            Long.toString(bitsPerSecond), partial.toString()));
    }

    /**
     * A live encoder's output, {@code folder/live-BITSk-SECONDSs.mp4}, made if missing: fragmented
     * MP4 as {@code ffmpeg -f mp4 -movflags +frag_keyframe+empty_moov+default_base_moof} writes it
     * to a pipe, H.264 640x360 at 25 fps with a keyframe every second (so one fragment a second)
     * and AAC sound, at a capped video bit rate: what a camera or an encoder publishes.
     *
     * @param bitsPerSecond the video's bit rate, also its cap, over a buffer of half a second
     * @param seconds its length
     * @throws IOException if ffmpeg is missing or fails (its output is in the message)
     */
    public static Path makeLive(Path folder, long bitsPerSecond, int seconds) throws IOException {
        return live(folder.resolve(String.format(Locale.ROOT, "live-%dk-%ds.mp4", bitsPerSecond / 1000, seconds)),
            bitsPerSecond, seconds, 440);
    }

    /**
     * A live encoder's output as {@link #makeLive} makes it, its sound a tone of {@code toneHz}, so that
     * clips made with different tones are different files ({@code folder/live-BITSk-SECONDSs-TONEhz.mp4}):
     * fragmented MP4 with a keyframe and a fragment every second, what HLS with fMP4 carries.
     *
     * @throws IOException if ffmpeg is missing or fails (its output is in the message)
     */
    public static Path makeLive(Path folder, long bitsPerSecond, int seconds, int toneHz) throws IOException {
        return live(folder.resolve(String.format(Locale.ROOT, "live-%dk-%ds-%dhz.mp4", bitsPerSecond / 1000,
            seconds, toneHz)), bitsPerSecond, seconds, toneHz);
    }

    private static Path live(Path clip, long bitsPerSecond, int seconds, int toneHz) throws IOException {
        String rate = Long.toString(bitsPerSecond);
        return madeOnce(clip, partial -> List.of("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi",
            "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=" + toneHz
            + ":sample_rate=48000", "-t", Integer.toString(seconds), "-c:v", "libx264", "-preset", "veryfast", "-b:v",
            rate, "-maxrate", rate, "-bufsize", Long.toString(bitsPerSecond / 2), "-g", "25", "-keyint_min", "25",
            "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-f", "mp4", "-movflags",
            "+frag_keyframe+empty_moov+default_base_moof", partial.toString()));
    }

    /**
     * {@code clip} if it is there; else runs the ffmpeg {@code command} makes for a partial file beside
     * it, and moves that to {@code clip} once ffmpeg succeeded.
     */
    private static Path madeOnce(Path clip, Function<Path, List<String>> command) throws IOException {
        Files.createDirectories(clip.getParent());
        if (Files.isRegularFile(clip) && Files.size(clip) > 0) {
            return clip;
        }
        Path partial = clip.resolveSibling(clip.getFileName() + ".partial.mp4");
        Path log = clip.resolveSibling("ffmpeg.log");
        Process process;
        try {
            process = new ProcessBuilder(command.apply(partial)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
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

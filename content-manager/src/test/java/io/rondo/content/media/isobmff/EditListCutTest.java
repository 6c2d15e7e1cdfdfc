package io.rondo.content.media.isobmff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An MP4 cut without re-encoding, {@code ffmpeg -ss 3.5 -i src.mp4 -t 25 -c copy}: its video
 * starts at the keyframe before 3.5 s (libx264's default GOP of 10 s: at 0) and its edit lists
 * present it from 3.5 s for 25.1 s. The stored copy starts where that presentation starts and
 * lasts as long, showing the pictures the source shows.
 */
class EditListCutTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aCopyCutStartsWhereItsEditListStartsIt() throws IOException {
        Ffmpeg.assumeInstalled();
        Path source = dir.resolve("src.mp4");
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=40", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=40", "-c:v", "libx264", "-c:a", "aac", source.toString());
        Path cut = dir.resolve("cut.mp4");
        ffmpeg("-ss", "3.5", "-i", source.toString(), "-t", "25", "-c", "copy", cut.toString());

        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class, MediaIndexers.prepare(cut, SECOND))
            .media()) {
            Path stored = StoredFiles.write(media, dir.resolve("stored.mp4"));
            MediaIndex index = media.index();

            assertEquals(25.1, index.durationNs() / 1e9, 0.05);
            assertEquals(26, index.fragments().size());
            assertEquals(0, probe(stored, "v", "stream=start_time"), 1e-6, "the video starts at 0");
            assertEquals(0, probe(stored, "a", "stream=start_time"), 0.05, "the audio at 0, less its priming");
            assertEquals(25.1, probe(stored, null, "format=duration"), 0.05, "as long as the cut presents");

            List<String> shown = frames(cut);
            List<String> storedFrames = frames(stored);
            assertTrue(storedFrames.size() - shown.size() < 100, "the pictures before 3.5 s are there only to be"
                + " decoded: one tick each, " + (storedFrames.size() - shown.size()) + " of them");
            assertEquals(shown, storedFrames.subList(storedFrames.size() - shown.size(), storedFrames.size()),
                "then the pictures the cut shows, in order");
            Ffmpeg.Run decode = Ffmpeg.run("ffmpeg", "-v", "error", "-nostdin", "-i", stored.toString(), "-fps_mode",
                "passthrough", "-enc_time_base", "1/90000", "-f", "null", "-");
            assertEquals("", decode.err(), "ffmpeg decodes it without a word");
        }
    }

    private static void ffmpeg(String... arguments) {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-v", "error", "-y"));
        command.addAll(List.of(arguments));
        Ffmpeg.Run run = Ffmpeg.run(command.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
    }

    private static double probe(Path file, String stream, String entry) {
        List<String> command = new ArrayList<>(List.of("ffprobe", "-v", "error"));
        if (stream != null) {
            command.addAll(List.of("-select_streams", stream));
        }
        command.addAll(List.of("-show_entries", entry, "-of", "csv=p=0", file.toString()));
        Ffmpeg.Run run = Ffmpeg.run(command.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
        return Double.parseDouble(run.out().strip());
    }

    /** The MD5 of every picture ffmpeg shows, in order. */
    private static List<String> frames(Path file) {
        Ffmpeg.Run run = Ffmpeg.run("ffmpeg", "-v", "error", "-nostdin", "-i", file.toString(), "-map", "0:v",
            "-fps_mode", "passthrough", "-enc_time_base", "1/90000", "-f", "framemd5", "-");
        assertEquals(0, run.exit(), run.err());
        return run.out().lines().filter(line -> !line.startsWith("#"))
            .map(line -> line.substring(line.lastIndexOf(',') + 1).strip()).toList();
    }
}

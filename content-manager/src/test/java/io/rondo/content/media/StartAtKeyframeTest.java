package io.rondo.content.media;

import io.rondo.content.remux.MediaIndexers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Media whose keyframes fall in the middle of rounds (a keyframe every 50 frames at 30 fps: at 0,
 * 1.667, 3.333, 5 s ...), as a stream opened at a position receives it: the init segment, then the
 * fragments from the one {@link MediaIndex#keyframeFragmentAt} picks. Its first video frame is the
 * keyframe at or before the position, and it decodes without a word (VP9 and AV1 starting on a
 * frame before the keyframe say "Missing reference frame"; H.264 starts on frames it cannot show).
 */
class StartAtKeyframeTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    static Path dir;

    static Stream<Arguments> clips() {
        return Stream.of(
            Arguments.of("h264.mp4", List.of("-c:v", "libx264", "-c:a", "aac")),
            Arguments.of("vp9.webm", List.of("-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                "-c:a", "libopus")),
            Arguments.of("av1.webm", List.of("-c:v", "libsvtav1", "-preset", "12", "-c:a", "libopus")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void aStreamOpenedAtAPositionStartsAtTheKeyframeAtOrBeforeIt(String name, List<String> codecs)
        throws IOException {
        Path source = clip(name, codecs);
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class,
            MediaIndexers.prepare(source, SECOND)).media()) {
            Path stored = StoredFiles.write(media, dir.resolve("stored-" + name));
            MediaIndex index = media.index();
            for (Fragment f : index.fragments()) {
                assertTrue(!f.hasKeyframe() || f.keyframeFirst(), "a round holding a keyframe starts at it: " + f);
            }
            for (long positionNs : new long[] {8_333_333_333L, 9 * SECOND, 10_500_000_000L}) {
                Path from = dir.resolve("from-" + positionNs + "-" + name);
                int first = index.keyframeFragmentAt(positionNs);
                write(stored, index, first, from);

                Ffmpeg.assertDecodesSilently(from);
                String firstFrame = firstVideoPacket(from);
                assertTrue(firstFrame.endsWith("K"), "the first frame is a keyframe: " + firstFrame);
                double at = Double.parseDouble(firstFrame.substring(0, firstFrame.indexOf(' ')));
                double position = positionNs / 1e9;
                assertTrue(at <= position && at > position - 50 / 30.0, "the first frame, at " + at + " s, is the "
                    + "keyframe at or before " + position + " s");
            }
        }
    }

    /** A 12 s clip with a keyframe every 50 frames at 30 fps, encoded by ffmpeg with {@code codecs}. */
    private static Path clip(String name, List<String> codecs) {
        Ffmpeg.assumeInstalled();
        String encoder = codecs.get(1);
        assumeTrue(Ffmpeg.run("ffmpeg", "-hide_banner", "-encoders").out().contains(" " + encoder + " "),
            "ffmpeg has no " + encoder + " encoder");
        Path clip = dir.resolve(name);
        Ffmpeg.Run make = Ffmpeg.run(Stream.of(List.of("ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
            "testsrc=size=160x120:rate=30:duration=12", "-f", "lavfi", "-i", "sine=frequency=440:duration=12",
            "-g", "50"), codecs, List.of(clip.toString())).flatMap(List::stream).toArray(String[]::new));
        assertEquals(0, make.exit(), make.err());
        return clip;
    }

    /** What a stream opened at fragment {@code first} delivers: the init segment and the fragments from it. */
    private static void write(Path stored, MediaIndex index, int first, Path out) throws IOException {
        byte[] bytes = Files.readAllBytes(stored);
        long from = index.fragments().get(first).offset();
        try (OutputStream o = Files.newOutputStream(out)) {
            o.write(bytes, 0, (int) index.init().length());
            o.write(bytes, (int) from, (int) (bytes.length - from));
        }
    }

    /** {@code pts_time flags} of the first video packet. */
    private static String firstVideoPacket(Path file) {
        Ffmpeg.Run probe = Ffmpeg.run("ffprobe", "-v", "error", "-select_streams", "v", "-show_entries",
            "packet=pts_time,flags", "-of", "csv=p=0:s=\\ ", file.toString());
        assertEquals(0, probe.exit(), probe.err());
        String line = probe.out().lines().findFirst().orElseThrow();
        return line.replace("_", "").strip();
    }
}

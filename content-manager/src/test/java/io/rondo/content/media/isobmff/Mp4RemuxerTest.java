package io.rondo.content.media.isobmff;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static io.rondo.content.media.IndexChecks.clip;
import static io.rondo.content.media.isobmff.RemuxChecks.assertOneMoofAndMdatPerFragment;
import static io.rondo.content.media.isobmff.RemuxChecks.assertOneRoundEach;
import static io.rondo.content.media.isobmff.RemuxChecks.assertSamplesIdentical;
import static io.rondo.content.media.isobmff.RemuxChecks.store;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The clips of src/test/resources/media (its README has the ffmpeg commands) stored as ingest
 * stores them: one fragment per round whatever the keyframe interval, keyframes where the encoder
 * put them, and every sample the source's, byte for byte. ffmpeg and ffprobe, where installed,
 * judge the stored files independently.
 */
class Mp4RemuxerTest {

    private static final long VIDEO_FRAME_NS = 40 * MS;
    private static final int[] ALL = {};

    @TempDir
    Path dir;

    /**
     * Each clip: its codecs, MIME type, duration, and the fragments that start at a keyframe with
     * rounds of 1 s (ALL: every one; the others have none).
     */
    static Stream<Arguments> clips() {
        String h264Aac = "avc1.64000B, mp4a.40.2";
        return Stream.of(
            // libx264's default GOP: 250 frames, a keyframe every 10 s; B-frames, so ctts and an edit list
            Arguments.of("h264-aac-gop250.mp4", h264Aac, "video/mp4", 20 * SECOND, new int[] {0, 10}),
            Arguments.of("h264-aac-gop250-faststart.mp4", h264Aac, "video/mp4", 20 * SECOND, new int[] {0, 10}),
            // ffmpeg's fragmented MP4 has no edit list: its video starts 80 ms (the B-frame delay) late
            Arguments.of("h264-aac-gop250-frag.mp4", h264Aac, "video/mp4", 20_080 * MS, new int[] {0, 10}),
            Arguments.of("h264-aac-gop50-frag.mp4", h264Aac, "video/mp4", 8_080 * MS, new int[] {0, 2, 4, 6}),
            Arguments.of("h264-aac-frag.mp4", h264Aac, "video/mp4", 4_080 * MS, new int[] {0, 1, 2, 3}),
            Arguments.of("plain.mp4", h264Aac, "video/mp4", 4 * SECOND, new int[] {0, 1, 2, 3}),
            Arguments.of("aac.m4a", "mp4a.40.2", "audio/mp4", 5 * SECOND, ALL),
            Arguments.of("aac-frag.mp4", "mp4a.40.2", "audio/mp4", 4_021_333_333L, ALL),
            Arguments.of("mp3.mp4", "mp4a.6B", "audio/mp4", 3 * SECOND, ALL),
            Arguments.of("opus.mp4", "opus", "audio/mp4", 3 * SECOND, ALL));
    }

    static Stream<String> clipNames() {
        return clips().map(arguments -> (String) arguments.get()[0]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void theFragmentTableCoversTheMediaOneRoundEach(String name, String codecs, String mimeType, long durationNs)
        throws IOException {
        Path stored = dir.resolve(name);

        MediaIndex index = store(clip(name), SECOND, stored);

        assertWellFormed(index, Files.size(stored));
        assertEquals("mp4", index.container());
        assertEquals(mimeType, index.mimeType());
        assertEquals(codecs, index.codecs());
        assertEquals(durationNs, index.durationNs(), "the duration of the longest track");
        assertEquals((durationNs + SECOND - 1) / SECOND, index.fragments().size(), "one fragment a round");
        for (Fragment f : index.fragments()) {
            assertEquals(f.startNs() / SECOND * SECOND, f.startNs(), "a fragment starts with its round: " + f);
        }
        assertOneRoundEach(index, stored, SECOND);
        assertOneMoofAndMdatPerFragment(index, stored);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void fragmentsStartAtKeyframesWhereTheEncoderPutThem(String name, String codecs, String mimeType,
                                                        long durationNs, int[] keyframeFragments) throws IOException {
        List<Fragment> fragments = store(clip(name), SECOND, dir.resolve(name)).fragments();

        List<Integer> startAtKeyframes = new ArrayList<>();
        for (int i = 0; i < fragments.size(); i++) {
            Fragment f = fragments.get(i);
            if (f.keyframeFirst()) {
                startAtKeyframes.add(i);
                assertTrue(Math.abs(f.keyframeNs() - f.startNs()) <= 2 * VIDEO_FRAME_NS, "its keyframe opens it: " + f);
            } else {
                assertFalse(f.hasKeyframe(), "a fragment between keyframes has none: " + f);
            }
        }
        List<Integer> expected = keyframeFragments == ALL ? IntStream.range(0, fragments.size()).boxed().toList()
            : IntStream.of(keyframeFragments).boxed().toList();
        assertEquals(expected, startAtKeyframes);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clipNames")
    void everySampleIsTheSourcesByteForByte(String name) throws IOException {
        Path stored = dir.resolve(name);

        store(clip(name), SECOND, stored);

        assertSamplesIdentical(clip(name), stored);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clipNames")
    void ffprobeReadsTheSourcesPacketsFromTheStoredCopy(String name) throws Exception {
        Path stored = dir.resolve(name);
        store(clip(name), SECOND, stored);

        List<List<String>> expected = FfmpegRuns.packets(clip(name));
        List<List<String>> actual = FfmpegRuns.packets(stored);

        assertEquals(expected.size(), actual.size(), "the audio and video streams");
        for (int s = 0; s < expected.size(); s++) {
            assertEquals(String.join("\n", expected.get(s)), String.join("\n", actual.get(s)),
                "stream " + s + ": pts, dts, size, flags and MD5 of every packet");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clipNames")
    void ffmpegDecodesTheStoredCopyToTheSourcesDuration(String name) throws Exception {
        Path stored = dir.resolve(name);
        store(clip(name), SECOND, stored);

        FfmpegRuns.Run decode = FfmpegRuns.run(FfmpegRuns.require("ffmpeg").toString(), "-v", "error", "-i",
            stored.toString(),
            "-f", "null", "-");

        assertEquals(new FfmpegRuns.Run(0, "", ""), decode, "ffmpeg decodes every packet without a complaint");
        assertEquals(FfmpegRuns.duration(clip(name)), FfmpegRuns.duration(stored), VIDEO_FRAME_NS / 1e9,
            "the duration, within one frame");
    }

    @Test
    void theMoovsPlaceDoesNotMatterAndATextTrackIsDropped() throws IOException {
        Path moovLast = dir.resolve("moov-last.mp4");
        Path moovFirst = dir.resolve("moov-first.mp4");

        MediaIndex expected = store(clip("h264-aac-gop250.mp4"), SECOND, moovLast);
        MediaIndex index = store(clip("h264-aac-gop250-faststart.mp4"), SECOND, moovFirst);

        assertEquals("avc1.64000B, mp4a.40.2", index.codecs(), "the subtitles' tx3g is not stored");
        assertEquals(expected, index);
        byte[] last = Files.readAllBytes(moovLast);
        byte[] first = Files.readAllBytes(moovFirst);
        int init = (int) index.init().length();
        // the init segments differ only in the avc1's btrt, which ffmpeg recomputed when it moved the moov
        assertTrue(Arrays.equals(last, init, last.length, first, init, first.length),
            "the same samples in the same fragments");
    }

    @Test
    void theRoundLengthSetsTheFragments() throws IOException {
        MediaIndex halves = store(clip("h264-aac-gop250.mp4"), SECOND / 2, dir.resolve("halves.mp4"));
        MediaIndex pairs = store(clip("h264-aac-gop250.mp4"), 2 * SECOND, dir.resolve("pairs.mp4"));

        assertEquals(40, halves.fragments().size());
        assertEquals(List.of(0, 20), keyframeFirst(halves));
        assertOneRoundEach(halves, dir.resolve("halves.mp4"), SECOND / 2);
        assertEquals(10, pairs.fragments().size());
        assertEquals(List.of(0, 5), keyframeFirst(pairs));
        assertOneRoundEach(pairs, dir.resolve("pairs.mp4"), 2 * SECOND);
    }

    @Test
    void aStoredCopyStoredAgainIsTheSameBytes() throws IOException {
        Path once = dir.resolve("once.mp4");
        Path twice = dir.resolve("twice.mp4");

        MediaIndex first = store(clip("h264-aac-gop250.mp4"), SECOND, once);
        MediaIndex second = store(once, SECOND, twice);

        assertEquals(first, second);
        assertArrayEquals(Files.readAllBytes(once), Files.readAllBytes(twice));
    }

    @Test
    void aFragmentedMp4OfOneMoofIsCutIntoRounds() throws IOException {
        Path oneMoof = dir.resolve("one-moof.mp4");
        Path fromOneMoof = dir.resolve("from-one-moof.mp4");
        Path direct = dir.resolve("direct.mp4");
        MediaIndex whole = store(clip("h264-aac-gop250.mp4"), 3600 * SECOND, oneMoof);

        MediaIndex index = store(oneMoof, SECOND, fromOneMoof);

        assertEquals(1, whole.fragments().size(), "all 20 s in one moof");
        assertEquals(20, index.fragments().size());
        store(clip("h264-aac-gop250.mp4"), SECOND, direct);
        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(fromOneMoof),
            "as if stored from the progressive source");
    }

    private static List<Integer> keyframeFirst(MediaIndex index) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < index.fragments().size(); i++) {
            if (index.fragments().get(i).keyframeFirst()) {
                at.add(i);
            }
        }
        return at;
    }
}

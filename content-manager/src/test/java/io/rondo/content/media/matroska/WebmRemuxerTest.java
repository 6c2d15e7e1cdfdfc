package io.rondo.content.media.matroska;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.clip;
import static io.rondo.content.media.matroska.MatroskaWalk.assertOneClusterPerRound;
import static io.rondo.content.media.matroska.MatroskaWalk.continuous;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.Listings;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.matroska.MatroskaDemuxer.Track;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ffmpeg's WebM and Matroska with long GOPs and long Clusters (src/test/resources/media/README.md),
 * remuxed to one Cluster per round: 20 s clips at 25 frames a second.
 */
class WebmRemuxerTest {

    private static final long CLIP_NS = 20 * SECOND;
    private static final long FRAME_NS = 40 * MS;

    @TempDir
    Path dir;

    /** Each clip, its type, and the rounds of 1 s that hold a video keyframe (none for audio). */
    static Stream<Arguments> clips() {
        return Stream.of(
            Arguments.of("vp8-vorbis-long-gop.webm", "video/webm", "vp8, vorbis", List.of(0, 10)),
            Arguments.of("vp9-opus-default-gop.webm", "video/webm", "vp9, opus", List.of(0, 5, 10, 15)),
            Arguments.of("vp9-opus-long-gop.mkv", "video/webm", "vp9, opus", List.of(0, 10)),
            Arguments.of("opus-long-clusters.webm", "audio/webm", "opus", List.of()));
    }

    private Path remuxed(String name, StoredMedia media) throws IOException {
        return StoredFiles.write(media, dir.resolve(name.replaceFirst("\\.[a-z]+$", "") + "-stored.webm"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void cutsOneFragmentPerRoundWhateverTheSourcesClusters(String name, String mimeType, String codecs)
        throws IOException {
        Path source = clip(name);
        assertTrue(MatroskaWalk.clusters(source) <= 10, "the source's Clusters are longer than a round");

        try (StoredMedia media = continuous(source, SECOND)) {
            MediaIndex index = media.index();

            assertEquals("webm", index.container());
            assertEquals(mimeType, index.mimeType());
            assertEquals(codecs, index.codecs());
            assertTrue(Math.abs(index.durationNs() - CLIP_NS) <= FRAME_NS, "a 20 s clip, was " + index.durationNs());
            assertEquals(0, index.init().offset());
            List<Fragment> fragments = index.fragments();
            assertTrue(fragments.size() == 20 || fragments.size() == 21, "the last round holds the last block");
            long offset = index.init().end();
            for (int i = 0; i < fragments.size(); i++) {
                Fragment f = fragments.get(i);
                boolean last = i == fragments.size() - 1;
                assertEquals(i * SECOND, f.startNs(), "fragment " + i + " starts its round");
                assertEquals(last ? index.durationNs() - i * SECOND : SECOND, f.durationNs(), "fragment " + i);
                assertTrue(f.durationNs() > 0 && f.durationNs() <= SECOND + FRAME_NS, "fragment " + i + " is a round");
                assertEquals(offset, f.offset(), "fragments are contiguous");
                offset = f.range().end();
            }
            assertOneClusterPerRound(remuxed(name, media), index, SECOND, FRAME_NS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void storesEveryBlockAsTheSourceHasIt(String name) throws IOException {
        Path source = clip(name);
        try (StoredMedia media = continuous(source, SECOND)) {
            Path stored = remuxed(name, media);

            MatroskaWalk.assertSameBlocks(source, stored);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void marksTheRoundsWithAVideoKeyframe(String name, String mimeType, String codecs, List<Integer> keyframeRounds)
        throws IOException {
        try (StoredMedia media = continuous(clip(name), SECOND)) {
            List<Fragment> fragments = media.index().fragments();
            for (int i = 0; i < fragments.size(); i++) {
                Fragment f = fragments.get(i);
                if (keyframeRounds.isEmpty()) {
                    assertEquals(f.startNs(), f.keyframeNs(), "audio starts anywhere: " + f);
                    assertTrue(f.keyframeFirst());
                } else if (keyframeRounds.contains(i)) {
                    assertTrue(f.keyframeNs() >= f.startNs() && f.keyframeNs() < f.startNs() + SECOND, f.toString());
                    assertTrue(f.keyframeFirst(), "the round's Cluster starts at its keyframe: " + f);
                } else {
                    assertEquals(Fragment.NO_KEYFRAME, f.keyframeNs(), "no keyframe in round " + i);
                    assertFalse(f.keyframeFirst());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void ffmpegFindsTheSamePacketsAndKeyframes(String name, String mimeType, String codecs,
                                               List<Integer> keyframeRounds) throws IOException {
        Ffmpeg.assumeInstalled();
        Path source = clip(name);
        try (StoredMedia media = continuous(source, SECOND)) {
            Path stored = remuxed(name, media);

            Map<Integer, List<String>> packets = Ffmpeg.packets(source);
            Listings.assertSame(packets, Ffmpeg.packets(stored), "packet");
            if (!keyframeRounds.isEmpty()) {
                List<Long> keyframesNs = packets.get(0).stream().filter(p -> p.contains(" K"))
                    .map(p -> Long.parseLong(p.substring(0, p.indexOf(' '))) * MS).toList();
                assertEquals(keyframesNs, media.index().fragments().stream().filter(Fragment::hasKeyframe)
                    .map(Fragment::keyframeNs).collect(Collectors.toList()));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void decodesSilentlyForAsLongAsTheSource(String name) throws IOException {
        Ffmpeg.assumeInstalled();
        Path source = clip(name);
        try (StoredMedia media = continuous(source, SECOND)) {
            Path stored = remuxed(name, media);

            Ffmpeg.assertDecodesSilently(stored);
            double sourceEnd = Ffmpeg.endSeconds(source);
            double storedEnd = Ffmpeg.endSeconds(stored);
            assertTrue(Math.abs(storedEnd - sourceEnd) <= FRAME_NS / 1e9, "plays " + storedEnd + " s, the source "
                + sourceEnd + " s");
            assertTrue(Math.abs(media.index().durationNs() / 1e9 - sourceEnd) <= FRAME_NS / 1e9,
                "the index says " + media.index().durationNs() + " ns");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void longerRoundsMakeLongerClusters(String name) throws IOException {
        try (StoredMedia media = continuous(clip(name), 3 * SECOND)) {
            assertEquals(7, media.index().fragments().size(), "20 s in rounds of 3 s");
            assertEquals(18 * SECOND, media.index().fragments().get(6).startNs());
            assertOneClusterPerRound(remuxed(name, media), media.index(), 3 * SECOND, FRAME_NS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void keepsTheTrackEntriesByteForByte(String name) throws IOException {
        Path source = clip(name);
        try (StoredMedia media = continuous(source, SECOND)) {
            Path stored = remuxed(name, media);

            assertEquals(trackEntries(source), trackEntries(stored));
        }
    }

    private static List<String> trackEntries(Path file) throws IOException {
        try (MediaFile in = MediaFile.open(file)) {
            return MatroskaDemuxer.open(in).orElseThrow().tracks().stream().map(Track::entry).map(MatroskaWalk::md5)
                .toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void writesTheSameBytesTwice(String name) throws IOException {
        try (StoredMedia media = continuous(clip(name), SECOND)) {
            Path first = StoredFiles.write(media, dir.resolve("first.webm"));
            Path second = StoredFiles.write(media, dir.resolve("second.webm"));

            assertEquals(-1, Files.mismatch(first, second));
        }
    }
}

package io.rondo.content.media;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** WebM from a second muxer ({@link SyntheticWebm}), whose Clusters' offsets and times are known. */
class WebmIndexerTest {

    @TempDir
    Path dir;

    /** Seven Clusters of 0.5 s, then three of 2 s: 9.5 s at 25 frames a second. */
    private static SyntheticWebm halfSecondsThenTwoSeconds(long ticksPerMs) {
        return new SyntheticWebm().timecodeScale(1_000_000 / ticksPerMs)
            .clusters(7, 0, 500 * ticksPerMs, 12, 300)
            .clusters(3, 3500 * ticksPerMs, 2000 * ticksPerMs, 50, 300);
    }

    static Stream<Arguments> variants() {
        return Stream.of(
            Arguments.of("known sizes", (UnaryOperator<SyntheticWebm>) w -> w, 1),
            Arguments.of("unknown-size Segment and Clusters",
                (UnaryOperator<SyntheticWebm>) SyntheticWebm::unknownSizes, 1),
            Arguments.of("no Duration: the last block and the DefaultDuration",
                (UnaryOperator<SyntheticWebm>) w -> w.duration(null).defaultDurationNs(40 * MS), 1),
            Arguments.of("unknown sizes and no Duration (MediaRecorder)",
                (UnaryOperator<SyntheticWebm>) w -> w.unknownSizes().duration(null).defaultDurationNs(40 * MS), 1),
            Arguments.of("a Duration of 0, as live muxers write: the last block",
                (UnaryOperator<SyntheticWebm>) w -> w.duration(0.0).defaultDurationNs(40 * MS), 1),
            Arguments.of("no Duration: the last BlockGroup's BlockDuration",
                (UnaryOperator<SyntheticWebm>) w -> w.duration(null).blockGroupsInLastCluster(), 1),
            Arguments.of("Cues and Tags after the last Cluster",
                (UnaryOperator<SyntheticWebm>) SyntheticWebm::cuesAndTagsAtEnd, 1),
            Arguments.of("unknown sizes, Cues and Tags after the last Cluster",
                (UnaryOperator<SyntheticWebm>) w -> w.unknownSizes().cuesAndTagsAtEnd(), 1),
            Arguments.of("a TimecodeScale of 0.1 ms and a 4-byte Duration",
                (UnaryOperator<SyntheticWebm>) SyntheticWebm::durationAsFloat4, 10),
            Arguments.of("an audio track", (UnaryOperator<SyntheticWebm>) SyntheticWebm::withAudio, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void groupsClustersIntoFragmentsOfAboutOneRound(String name, UnaryOperator<SyntheticWebm> variant,
                                                    long ticksPerMs) throws IOException {
        SyntheticWebm.Written webm = variant.apply(halfSecondsThenTwoSeconds(ticksPerMs)).write();

        MediaIndex index = IndexChecks.index(dir, "clip.webm", webm.bytes(), SECOND).orElseThrow();

        assertWellFormed(index, webm.bytes().length);
        assertEquals(webm.initEnd(), index.init().end(), "the init segment ends at the first Cluster");
        assertEquals(9500 * MS, index.durationNs());
        List<Long> cluster = webm.clusterOffsets();
        assertEquals(List.of(
            Fragment.unplaced(0, SECOND, cluster.get(0), cluster.get(2) - cluster.get(0)),
            Fragment.unplaced(SECOND, SECOND, cluster.get(2), cluster.get(4) - cluster.get(2)),
            Fragment.unplaced(2 * SECOND, SECOND, cluster.get(4), cluster.get(6) - cluster.get(4)),
            Fragment.unplaced(3 * SECOND, 2500 * MS, cluster.get(6), cluster.get(8) - cluster.get(6)),
            Fragment.unplaced(5500 * MS, 2 * SECOND, cluster.get(8), cluster.get(9) - cluster.get(8)),
            Fragment.unplaced(7500 * MS, 2 * SECOND, cluster.get(9), webm.bytes().length - cluster.get(9))),
            index.fragments());
        assertEquals("webm", index.container());
        assertEquals("video/webm", index.mimeType());
        assertEquals(name.contains("audio") ? "vp8, opus" : "vp8", index.codecs());
    }

    @Test
    void longerRoundsTakeMoreClustersPerFragment() throws IOException {
        SyntheticWebm.Written webm = halfSecondsThenTwoSeconds(1).write();

        MediaIndex index = IndexChecks.index(dir, "clip.webm", webm.bytes(), 2 * SECOND).orElseThrow();

        assertWellFormed(index, webm.bytes().length);
        assertEquals(List.of(0L, 2000L, 5500L, 7500L), index.fragments().stream().map(f -> f.startNs() / MS).toList());
    }

    @Test
    void clustersLongerThanTheRoundAreFragmentsOfTheirOwn() throws IOException {
        SyntheticWebm.Written webm = new SyntheticWebm().clusters(3, 0, 2000, 50, 100).write();

        MediaIndex index = IndexChecks.index(dir, "clip.webm", webm.bytes(), SECOND).orElseThrow();

        assertWellFormed(index, webm.bytes().length);
        assertEquals(3, index.fragments().size());
        assertTrue(index.fragments().stream().allMatch(f -> f.durationNs() == 2 * SECOND));
        assertEquals(webm.clusterOffsets(), index.fragments().stream().map(Fragment::offset).toList());
    }

    @Test
    void aClusterTimecodeThatIsNotZeroStartsTheFirstFragment() throws IOException {
        SyntheticWebm.Written webm = new SyntheticWebm().clusters(4, 60_000, 1000, 25, 100).write();

        MediaIndex index = IndexChecks.index(dir, "clip.webm", webm.bytes(), SECOND).orElseThrow();

        assertWellFormed(index, webm.bytes().length);
        assertEquals(60 * SECOND, index.fragments().get(0).startNs());
        assertEquals(64 * SECOND, index.durationNs());
    }

    @Test
    void matroskaWithH264TellsTheProfileAndLevel() throws IOException {
        byte[] avcC = SyntheticMp4.bytes(1, 0x64, 0x00, 0x1F, 0xFF, 0xE1, 0, 4, 0x67, 0x64, 0, 0x1F, 1, 0, 2, 0x68,
            0xCE);
        SyntheticWebm.Written mkv = new SyntheticWebm().docType("matroska").video("V_MPEG4/ISO/AVC", avcC)
            .clusters(2, 0, 1000, 25, 100).write();

        MediaIndex index = IndexChecks.index(dir, "clip.mkv", mkv.bytes(), SECOND).orElseThrow();

        assertEquals("avc1.64001F", index.codecs());
    }

    @Test
    void av1TellsProfileLevelTierAndDepthFromCodecPrivate() throws IOException {
        byte[] av1C = SyntheticMp4.bytes(0x81, 0x08, 0x0C, 0x00);
        SyntheticWebm.Written webm = new SyntheticWebm().video("V_AV1", av1C).withAudio()
            .clusters(2, 0, 1000, 25, 100).write();

        MediaIndex index = IndexChecks.index(dir, "clip.webm", webm.bytes(), SECOND).orElseThrow();

        assertEquals("av01.0.08M.08, opus", index.codecs());
        assertEquals("video/webm; codecs=\"av01.0.08M.08, opus\"", index.mseType());
    }

    @Test
    void aCodecABrowserCannotPlayIsUnsupported() {
        SyntheticWebm.Written webm = new SyntheticWebm().video("V_THEORA", null).clusters(2, 0, 1000, 25, 100).write();

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> IndexChecks.index(dir, "clip.webm", webm.bytes(), SECOND));

        assertEquals("unsupported: track 1 has codec V_THEORA; Rondo streams VP8, VP9, AV1, H.264, HEVC, Vorbis,"
            + " Opus, AAC and FLAC", e.getMessage());
    }

    @Test
    void clusterTimecodesGoingBackAreCorrupt() {
        SyntheticWebm.Written webm = new SyntheticWebm().cluster(0, 1000, 25, 100).cluster(2000, 1000, 25, 100)
            .cluster(1000, 1000, 25, 100).write();

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> IndexChecks.index(dir, "clip.webm", webm.bytes(), SECOND));

        assertEquals("corrupt: the Cluster at byte " + webm.clusterOffsets().get(2) + " starts at 1.000 s, before"
            + " the Cluster at byte " + webm.clusterOffsets().get(1) + " (2.000 s)", e.getMessage());
    }

    @Test
    void aSegmentWithoutClustersHasNoMediaToPlay() {
        SyntheticWebm.Written webm = new SyntheticWebm().write();

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> IndexChecks.index(dir, "clip.webm", webm.bytes(), SECOND));

        assertTrue(e.getMessage().startsWith("corrupt: the Segment at byte 36 holds no Cluster"), e.getMessage());
    }

    @Test
    void anEbmlDocumentOfAnotherTypeIsNoMedia() throws IOException {
        SyntheticWebm.Written other = new SyntheticWebm().docType("x-rondo-test").clusters(2, 0, 1000, 25, 100)
            .write();

        assertEquals(Optional.empty(), IndexChecks.index(dir, "doc.ebml", other.bytes(), SECOND));
    }
}

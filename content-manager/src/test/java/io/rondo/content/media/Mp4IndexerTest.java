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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Fragmented MP4 from a second muxer ({@link SyntheticMp4}), whose fragments' offsets and times are known. */
class Mp4IndexerTest {

    @TempDir
    Path dir;

    /** Seven fragments of 0.5 s, then three of 2 s, at 30 frames a second (90 kHz). */
    private static SyntheticMp4 halfSecondsThenTwoSeconds() {
        return new SyntheticMp4().fragments(7, 15, 3000, 200).fragments(3, 60, 3000, 200);
    }

    static Stream<Arguments> variants() {
        return Stream.of(
            Arguments.of("video only", (UnaryOperator<SyntheticMp4>) m -> m, "avc1.42C01E"),
            Arguments.of("video and audio", (UnaryOperator<SyntheticMp4>) SyntheticMp4::withAudio,
                "avc1.42C01E, mp4a.40.2"),
            Arguments.of("styp and sidx before every moof", (UnaryOperator<SyntheticMp4>) SyntheticMp4::stypAndSidx,
                "avc1.42C01E"),
            Arguments.of("64-bit mdat sizes", (UnaryOperator<SyntheticMp4>) SyntheticMp4::largeMdat, "avc1.42C01E"),
            Arguments.of("a last mdat of size 0 (to the end of the file)",
                (UnaryOperator<SyntheticMp4>) SyntheticMp4::lastMdatToEnd, "avc1.42C01E"),
            Arguments.of("sample durations in tfhd", (UnaryOperator<SyntheticMp4>) SyntheticMp4::defaultDurations,
                "avc1.42C01E"),
            Arguments.of("sample durations in trex", (UnaryOperator<SyntheticMp4>) SyntheticMp4::trexDurations,
                "avc1.42C01E"),
            Arguments.of("tfdt version 0", (UnaryOperator<SyntheticMp4>) SyntheticMp4::tfdtVersion0, "avc1.42C01E"),
            Arguments.of("no tfdt: times from the durations", (UnaryOperator<SyntheticMp4>) SyntheticMp4::noTfdt,
                "avc1.42C01E"),
            Arguments.of("an mfra at the end", (UnaryOperator<SyntheticMp4>) m -> m.withAudio().mfra(),
                "avc1.42C01E, mp4a.40.2"),
            Arguments.of("mehd gives the duration", (UnaryOperator<SyntheticMp4>) m -> m.mehd(9500), "avc1.42C01E"),
            Arguments.of("mvhd gives the duration", (UnaryOperator<SyntheticMp4>) m -> m.mvhd(9500), "avc1.42C01E"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void groupsFragmentsOfAboutOneRound(String name, UnaryOperator<SyntheticMp4> variant, String codecs)
        throws IOException {
        SyntheticMp4.Written mp4 = variant.apply(halfSecondsThenTwoSeconds()).write();

        MediaIndex index = IndexChecks.index(dir, "clip.mp4", mp4.bytes(), SECOND).orElseThrow();

        assertWellFormed(index, mp4.bytes().length);
        assertEquals(mp4.moovEnd(), index.init().end(), "the init segment is ftyp + moov");
        assertEquals(9500 * MS, index.durationNs());
        List<Long> unit = mp4.unitOffsets();
        long end = mp4.bytes().length;
        assertEquals(List.of(
            Fragment.unplaced(0, SECOND, unit.get(0), unit.get(2) - unit.get(0)),
            Fragment.unplaced(SECOND, SECOND, unit.get(2), unit.get(4) - unit.get(2)),
            Fragment.unplaced(2 * SECOND, SECOND, unit.get(4), unit.get(6) - unit.get(4)),
            Fragment.unplaced(3 * SECOND, 2500 * MS, unit.get(6), unit.get(8) - unit.get(6)),
            Fragment.unplaced(5500 * MS, 2 * SECOND, unit.get(8), unit.get(9) - unit.get(8)),
            Fragment.unplaced(7500 * MS, 2 * SECOND, unit.get(9), end - unit.get(9))),
            index.fragments());
        assertEquals("mp4", index.container());
        assertEquals("video/mp4", index.mimeType());
        assertEquals(codecs, index.codecs());
    }

    @Test
    void stypAndSidxGoWithTheMoofTheyPrecede() throws IOException {
        SyntheticMp4.Written mp4 = new SyntheticMp4().stypAndSidx().fragments(3, 30, 3000, 100).write();

        MediaIndex index = IndexChecks.index(dir, "clip.mp4", mp4.bytes(), SECOND).orElseThrow();

        assertEquals(mp4.moovEnd(), index.init().end());
        assertEquals(3, index.fragments().size());
        for (Fragment f : index.fragments()) {
            assertEquals("styp", new String(mp4.bytes(), (int) f.offset() + 4, 4, StandardCharsets.US_ASCII));
            assertTrue(f.offset() < mp4.moofOffsets().get(index.fragments().indexOf(f)));
        }
    }

    @Test
    void audioOnlyIsAudioMp4() throws IOException {
        SyntheticMp4.Written mp4 = new SyntheticMp4().audioOnly().fragments(7, 25, 960, 20).fragments(3, 100, 960, 20)
            .write();

        MediaIndex index = IndexChecks.index(dir, "clip.m4a", mp4.bytes(), SECOND).orElseThrow();

        assertWellFormed(index, mp4.bytes().length);
        assertEquals("audio/mp4; codecs=\"mp4a.40.2\"", index.mseType());
        assertEquals(List.of(0L, 1000L, 2000L, 3000L, 5500L, 7500L),
            index.fragments().stream().map(f -> f.startNs() / MS).toList());
        assertEquals(9500 * MS, index.durationNs());
    }

    @Test
    void hevcTellsProfileTierLevelAndConstraints() throws IOException {
        byte[] hvcC = SyntheticMp4.box("hvcC", SyntheticMp4.bytes(1, 0x01, 0x60, 0, 0, 0, 0xB0, 0, 0, 0, 0, 0, 93,
            0xF0, 0, 0xFC, 0xFD, 0xF8, 0xF8, 0, 0, 0x0F, 0));
        SyntheticMp4.Written mp4 = new SyntheticMp4().videoEntry("hvc1", hvcC).fragments(2, 30, 3000, 100).write();

        assertEquals("hvc1.1.6.L93.B0", IndexChecks.index(dir, "clip.mp4", mp4.bytes(), SECOND).orElseThrow().codecs());
    }

    @Test
    void encryptedTracksAreUnsupported() {
        byte[] avcC = SyntheticMp4.box("avcC", SyntheticMp4.bytes(1, 0x42, 0xC0, 0x1E, 0xFF, 0xE0, 0));
        SyntheticMp4.Written mp4 = new SyntheticMp4().videoEntry("encv", avcC).fragments(2, 30, 3000, 100).write();

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> IndexChecks.index(dir, "clip.mp4", mp4.bytes(), SECOND));

        assertTrue(e.getMessage().matches("unsupported: track 1 is encrypted \\(encv at byte \\d+\\); Rondo streams"
            + " clear media only"), e.getMessage());
    }

    @Test
    void aMoovWithSamplesIsProgressiveDespiteItsMvex() throws IOException {
        SyntheticMp4.Written mp4 = new SyntheticMp4().samplesInMoov().fragments(2, 30, 3000, 100).write();

        assertEquals(Optional.empty(), IndexChecks.index(dir, "clip.mp4", mp4.bytes(), SECOND));
    }

    @Test
    void aTruncatedMdatIsNamedWithItsOffsetAndSize() {
        SyntheticMp4.Written mp4 = halfSecondsThenTwoSeconds().write();
        long mdat = mp4.unitOffsets().get(3) - 8 - 15 * 200;
        byte[] cut = Arrays.copyOf(mp4.bytes(), (int) mdat + 100);

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> IndexChecks.index(dir, "clip.mp4", cut, SECOND));

        assertEquals("truncated: the mdat at byte " + mdat + " claims 3008 bytes but the file ends at " + (mdat + 100),
            e.getMessage());
    }

    @Test
    void aBoxSmallerThanItsHeaderIsCorrupt() {
        SyntheticMp4.Written mp4 = halfSecondsThenTwoSeconds().write();
        byte[] bytes = mp4.bytes().clone();
        int moof = (int) (long) mp4.moofOffsets().get(1);
        ByteBuffer.wrap(bytes).putInt(moof, 4);

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> IndexChecks.index(dir, "clip.mp4", bytes, SECOND));

        assertEquals("corrupt: the moof at byte " + moof + " claims a size of 4 bytes, less than its own header",
            e.getMessage());
    }

    @Test
    void aMoofBeforeTheMoovIsAMediaSegmentWithoutItsInit() {
        byte[] bytes = SyntheticMp4.cat(SyntheticMp4.box("styp", SyntheticMp4.ascii("msdh"), SyntheticMp4.u32(0)),
            SyntheticMp4.box("moof", SyntheticMp4.fullBox("mfhd", 0, 0, SyntheticMp4.u32(1))),
            SyntheticMp4.box("mdat", new byte[10]));

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> IndexChecks.index(dir, "segment.m4s", bytes, SECOND));

        assertEquals("unsupported: the moof at byte 16 comes before any moov: this is a media segment without its"
            + " initialization segment", e.getMessage());
    }
}

package io.rondo.content.media.mp3;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.clip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.Listings;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.matroska.SyntheticWebm;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MP3 as lame writes it (src/test/resources/media/README.md): 10 s of tone, CBR with ID3v2, ID3v1
 * and an Info frame, VBR at 22.05 kHz (MPEG-2, 576 samples a frame) with a Xing frame and no tags.
 */
class Mp3RemuxerTest {

    @TempDir
    Path dir;

    /** A frame of the stored copy: where it is, how long, and how many samples at what rate. */
    private record Frame(int offset, int length, int samples, int rate) {

        long durationNs() {
            return samples * SECOND / rate;
        }
    }

    static Stream<Arguments> clips() {
        return Stream.of(Arguments.of("cbr-id3.mp3", 44_100, 1152), Arguments.of("vbr.mp3", 22_050, 576));
    }

    private static StoredMedia continuous(Path file, long roundNs) throws IOException {
        return assertInstanceOf(Preparation.Continuous.class, Mp3Remuxer.prepare(file, roundNs)).media();
    }

    private Path stored(StoredMedia media) throws IOException {
        return StoredFiles.write(media, dir.resolve("stored.mp3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void groupsWholeFramesIntoOneRunPerRound(String name, int rate, int samplesPerFrame) throws IOException {
        try (StoredMedia media = continuous(clip(name), SECOND)) {
            MediaIndex index = media.index();
            List<Frame> frames = frames(Files.readAllBytes(stored(media)));

            assertEquals("mp3", index.container());
            assertEquals("audio/mpeg", index.mseType());
            assertEquals(new ByteRange(0, 0), index.init(), "audio/mpeg has no init segment");
            assertTrue(frames.stream().allMatch(f -> f.rate() == rate && f.samples() == samplesPerFrame));
            long framesNs = frames.stream().mapToLong(f -> f.samples()).sum() * SECOND / rate;
            assertEquals(framesNs, index.durationNs(), "the duration is the frames'");
            assertTrue(Math.abs(index.durationNs() - 10 * SECOND) < 3 * frames.get(0).durationNs(), "about 10 s");
            List<Fragment> fragments = index.fragments();
            assertEquals(11, fragments.size());
            long offset = 0;
            long samplesBefore = 0;
            int next = 0;
            for (int i = 0; i < fragments.size(); i++) {
                Fragment f = fragments.get(i);
                assertEquals(offset, f.offset(), "fragments are contiguous");
                assertEquals(i * SECOND, f.startNs());
                assertEquals(i < fragments.size() - 1 ? SECOND : index.durationNs() - i * SECOND, f.durationNs());
                assertEquals(f.startNs(), f.keyframeNs(), "audio starts anywhere");
                while (frames.get(next).offset() < f.offset()) {
                    samplesBefore += frames.get(next++).samples();
                }
                assertEquals(f.offset(), frames.get(next).offset(), "fragment " + i + " starts with a whole frame");
                long firstFrameNs = samplesBefore * SECOND / rate;
                assertTrue(firstFrameNs >= f.startNs() && firstFrameNs < f.startNs() + frames.get(0).durationNs(),
                    "fragment " + i + "'s first frame starts its round, at " + firstFrameNs + " ns");
                offset = f.range().end();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void storesTheAudioFramesAsTheyAreAndNothingElse(String name) throws IOException {
        byte[] source = Files.readAllBytes(clip(name));
        try (StoredMedia media = continuous(clip(name), SECOND)) {
            byte[] stored = Files.readAllBytes(stored(media));

            int start = id3v2End(source);
            Frame info = frames(Arrays.copyOfRange(source, start, source.length)).get(0);
            String infoText = new String(source, start, info.length(), StandardCharsets.ISO_8859_1);
            assertTrue(infoText.contains("Xing") || infoText.contains("Info"), "lame writes a Xing or Info frame");
            int audio = start + info.length();
            assertArrayEquals(Arrays.copyOfRange(source, audio, audio + stored.length), stored);
            int rest = source.length - audio - stored.length;
            assertTrue(rest == 0 || rest == 128 && new String(source, source.length - 128, 3,
                StandardCharsets.ISO_8859_1).equals("TAG"), "only an ID3v1 tag is left out at the end");
        }
    }

    private static int id3v2End(byte[] bytes) {
        if (bytes[0] != 'I' || bytes[1] != 'D' || bytes[2] != '3') {
            return 0;
        }
        return 10 + ((bytes[6] & 0x7F) << 21 | (bytes[7] & 0x7F) << 14 | (bytes[8] & 0x7F) << 7 | bytes[9] & 0x7F);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void ffmpegFindsTheSamePacketsAndDecodesThemSilently(String name) throws IOException {
        Ffmpeg.assumeInstalled();
        Path source = clip(name);
        try (StoredMedia media = continuous(source, SECOND)) {
            Path stored = stored(media);

            Listings.assertSame(Ffmpeg.packets(source), Ffmpeg.packets(stored), "packet");
            Ffmpeg.assertDecodesSilently(stored);
            double frameS = 1152.0 / 22_050;
            assertTrue(Math.abs(Ffmpeg.endSeconds(stored) - Ffmpeg.endSeconds(source)) <= frameS);
            assertTrue(Math.abs(media.index().durationNs() / 1e9 - Ffmpeg.endSeconds(source)) <= frameS);
        }
    }

    @Test
    void longerRoundsMakeLongerRuns() throws IOException {
        try (StoredMedia media = continuous(clip("vbr.mp3"), 4 * SECOND)) {
            assertEquals(List.of(0L, 4 * SECOND, 8 * SECOND),
                media.index().fragments().stream().map(Fragment::startNs).toList());
        }
    }

    @Test
    void dropsAnApeTagAndAnId3v1TagAtTheEnd() throws IOException {
        byte[] clip = Files.readAllBytes(clip("vbr.mp3"));
        byte[] tagged = SyntheticWebm.cat(clip, apeTag("Title", "A round"), id3v1("A round"));
        try (StoredMedia plain = continuous(clip("vbr.mp3"), SECOND);
             StoredMedia withTags = continuous(Files.write(dir.resolve("tagged.mp3"), tagged), SECOND)) {
            byte[] expected = Files.readAllBytes(StoredFiles.write(plain, dir.resolve("plain.mp3")));

            assertArrayEquals(expected, Files.readAllBytes(stored(withTags)));
        }
    }

    /** An APEv2 tag with a header, one item, and a footer, as mp3gain and foobar2000 write. */
    private static byte[] apeTag(String key, String value) {
        byte[] item = SyntheticWebm.cat(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(value.length())
            .putInt(0).array(), (key + "\0" + value).getBytes(StandardCharsets.US_ASCII));
        return SyntheticWebm.cat(apeHeader(item.length, true), item, apeHeader(item.length, false));
    }

    private static byte[] apeHeader(int items, boolean header) {
        return ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN)
            .put("APETAGEX".getBytes(StandardCharsets.US_ASCII)).putInt(2000).putInt(items + 32).putInt(1)
            .putInt(0x80000000 | (header ? 0x20000000 : 0)).array();
    }

    private static byte[] id3v1(String title) {
        byte[] tag = new byte[128];
        System.arraycopy(("TAG" + title).getBytes(StandardCharsets.US_ASCII), 0, tag, 0, 3 + title.length());
        return tag;
    }

    @Test
    void sniffsAnId3v2TagOrTwoFramesInARow() throws IOException {
        assertTrue(Mp3Remuxer.sniff(head(clip("cbr-id3.mp3"))), "ID3v2");
        assertTrue(Mp3Remuxer.sniff(head(clip("vbr.mp3"))), "a frame and another");
        assertTrue(Mp3Remuxer.sniff(ByteBuffer.wrap(new byte[] {'I', 'D', '3', 4, 0, 0, 0, 0, 0, 0})), "only ID3");

        byte[] oneFrame = Arrays.copyOf(Files.readAllBytes(clip("vbr.mp3")), Mp3Remuxer.SNIFF_BYTES);
        int first = Mp3Remuxer.frameBytes(ByteBuffer.wrap(oneFrame).getInt(0));
        Arrays.fill(oneFrame, first, oneFrame.length, (byte) 0);
        assertFalse(Mp3Remuxer.sniff(ByteBuffer.wrap(oneFrame)), "one frame header, then nothing");
        for (String other : List.of("vp9-opus.webm", "h264-aac-frag.mp4", "plain.mp4")) {
            assertFalse(Mp3Remuxer.sniff(head(clip(other))), other);
        }
        byte[] text = "A round is one second long.\n".getBytes(StandardCharsets.UTF_8);
        assertFalse(Mp3Remuxer.sniff(ByteBuffer.wrap(text)), "text");
        byte[] noise = new byte[Mp3Remuxer.SNIFF_BYTES];
        new Random(10).nextBytes(noise);
        assertFalse(Mp3Remuxer.sniff(ByteBuffer.wrap(noise)), "noise");
    }

    private static ByteBuffer head(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return ByteBuffer.wrap(Arrays.copyOf(bytes, Math.min(bytes.length, Mp3Remuxer.SNIFF_BYTES)));
    }

    @Test
    void anId3TaggedFileOfAnotherKindIsDiscreteWithANote() throws IOException {
        Path flac = Files.write(dir.resolve("tagged.flac"), SyntheticWebm.cat(new byte[] {'I', 'D', '3', 4, 0, 0, 0, 0,
            0, 6}, new byte[6], "fLaC".getBytes(StandardCharsets.US_ASCII), new byte[64]));

        assertEquals(new Preparation.Discrete("after its ID3v2 tag (bytes 0 to 15) comes no MP3 frame but 66 4C 61 43;"
            + " Rondo streams MPEG audio Layer III; to stream it: ffmpeg -i tagged.flac -c:a libopus tagged.webm"),
            Mp3Remuxer.prepare(flac, SECOND));
    }

    @Test
    void freeFormatIsRefusedSayingWhere() throws IOException {
        byte[] header = {'I', 'D', '3', 4, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFB, 0x00, (byte) 0xC4};
        Path file = Files.write(dir.resolve("free.mp3"), SyntheticWebm.cat(header, new byte[400]));

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> Mp3Remuxer.prepare(file, SECOND));
        assertTrue(e.getMessage().startsWith("unsupported: the MP3 frame at byte 10 is free-format"), e.getMessage());
    }

    @Test
    void lostFrameSyncIsCorruptSayingWhere() throws IOException {
        byte[] bytes = Files.readAllBytes(clip("vbr.mp3"));
        List<Frame> frames = frames(bytes);
        int at = frames.get(100).offset();
        System.arraycopy("JUNK".getBytes(StandardCharsets.US_ASCII), 0, bytes, at, 4);
        Path file = Files.write(dir.resolve("junk.mp3"), bytes);

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> Mp3Remuxer.prepare(file, SECOND));
        assertEquals("corrupt: MP3 frame sync is lost at byte " + at + ", after the frame at byte "
            + frames.get(99).offset() + ": it holds 4A 55 4E 4B where a frame header should be", e.getMessage());
    }

    @Test
    void aLastFrameCutShortIsTruncated() throws IOException {
        byte[] bytes = Files.readAllBytes(clip("cbr-id3.mp3"));
        Path file = Files.write(dir.resolve("cut.mp3"), Arrays.copyOf(bytes, bytes.length - 128 - 50));

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> Mp3Remuxer.prepare(file, SECOND));
        assertTrue(e.getMessage().matches("truncated: the MP3 frame at byte \\d+ claims 10[45] bytes but the file ends"
            + " at " + (bytes.length - 178)), e.getMessage());
    }

    @Test
    void aFileEndingInsideAFrameHeaderIsTruncated() throws IOException {
        byte[] bytes = Files.readAllBytes(clip("vbr.mp3"));
        byte[] cut = SyntheticWebm.cat(bytes, Arrays.copyOf(bytes, 3));
        Path file = Files.write(dir.resolve("cut.mp3"), cut);

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> Mp3Remuxer.prepare(file, SECOND));
        assertEquals("truncated: the file ends at byte " + cut.length + ", 3 bytes into the header of an MP3 frame at"
            + " byte " + bytes.length, e.getMessage());
    }

    @Test
    void roundsShorterThanAFrameAreRefused() {
        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> Mp3Remuxer.prepare(clip("vbr.mp3"), 10 * MS));
        assertTrue(e.getMessage().startsWith("unsupported: rounds of 0.010 s are shorter than the MP3 frame at byte"),
            e.getMessage());
    }

    @Test
    void aSourceThatChangedAfterPlanningIsNotWritten() throws IOException {
        Path source = Files.copy(clip("vbr.mp3"), dir.resolve("changing.mp3"));
        try (StoredMedia media = continuous(source, SECOND)) {
            byte[] bytes = Files.readAllBytes(source);
            Arrays.fill(bytes, bytes.length / 2, bytes.length, (byte) 0x42);
            Files.write(source, bytes);

            IOException e = assertThrows(IOException.class,
                () -> media.writeFragment(8, Channels.newChannel(OutputStream.nullOutputStream())));
            assertTrue(e.getMessage().startsWith("the source no longer matches what was planned for fragment 8"),
                e.getMessage());
        }
    }

    /** The frames of {@code bytes}, which hold nothing else, read by this test's own header parser. */
    private static List<Frame> frames(byte[] bytes) {
        int[] mpeg1Kbps = {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320};
        int[] mpeg2Kbps = {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160};
        int[][] rates = {{11_025, 12_000, 8_000}, {}, {22_050, 24_000, 16_000}, {44_100, 48_000, 32_000}};
        List<Frame> frames = new ArrayList<>();
        int at = 0;
        while (at + 4 <= bytes.length && (bytes[at] & 0xFF) == 0xFF && (bytes[at + 1] & 0xE6) == 0xE2) {
            int version = (bytes[at + 1] >> 3) & 3;
            int kbps = (version == 3 ? mpeg1Kbps : mpeg2Kbps)[(bytes[at + 2] >> 4) & 15];
            int rate = rates[version][(bytes[at + 2] >> 2) & 3];
            int length = (version == 3 ? 144_000 : 72_000) * kbps / rate + ((bytes[at + 2] >> 1) & 1);
            frames.add(new Frame(at, length, version == 3 ? 1152 : 576, rate));
            at += length;
        }
        return frames;
    }

    @Test
    void theTestsOwnFrameWalkReadsAWholeStoredCopy() throws IOException {
        try (StoredMedia media = continuous(clip("cbr-id3.mp3"), SECOND)) {
            byte[] stored = Files.readAllBytes(stored(media));
            List<Frame> frames = frames(stored);
            Frame last = frames.get(frames.size() - 1);

            assertEquals(stored.length, last.offset() + last.length());
        }
    }
}

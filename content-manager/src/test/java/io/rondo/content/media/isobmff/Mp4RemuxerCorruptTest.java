package io.rondo.content.media.isobmff;

import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.clip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MP4 files Rondo cannot stream as they are: truncated or corrupt ones fail with what and where;
 * codecs browsers do not play from MP4, and encrypted tracks, are discrete objects with a note
 * saying how to make the file streamable.
 */
class Mp4RemuxerCorruptTest {

    @TempDir
    Path dir;

    private static byte[] bytes(String clip) throws IOException {
        return Files.readAllBytes(clip(clip));
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    private MediaFormatException failure(String name, byte[] bytes) throws IOException {
        Path file = write(name, bytes);
        return assertThrows(MediaFormatException.class, () -> Mp4Remuxer.prepare(file, SECOND));
    }

    private String note(String name, byte[] bytes) throws IOException {
        Preparation preparation = Mp4Remuxer.prepare(write(name, bytes), SECOND);
        return assertInstanceOf(Preparation.Discrete.class, preparation, () -> "discrete: " + preparation).note();
    }

    /** Where the {@code nth} (from 0) box of {@code type} starts. */
    private static int box(byte[] bytes, String type, int nth) {
        byte[] pattern = type.getBytes(StandardCharsets.US_ASCII);
        int found = -1;
        for (int i = 4; i + 4 <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + 4, pattern, 0, 4) && found++ == nth - 1) {
                return i - 4;
            }
        }
        throw new AssertionError("no " + type + " number " + nth);
    }

    private static int u32(byte[] bytes, int at) {
        return ByteBuffer.wrap(bytes).getInt(at);
    }

    private static void putU32(byte[] bytes, int at, int value) {
        ByteBuffer.wrap(bytes).putInt(at, value);
    }

    private static void putType(byte[] bytes, int boxAt, String type) {
        System.arraycopy(type.getBytes(StandardCharsets.US_ASCII), 0, bytes, boxAt + 4, 4);
    }

    @Test
    void aProgressiveMp4CutBeforeItsMoovNamesItsMdat() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250.mp4");
        int mdat = box(mp4, "mdat", 0);

        assertEquals("truncated: the mdat at byte " + mdat + " claims " + u32(mp4, mdat) + " bytes but the file ends"
            + " at 50000", failure("cut.mp4", Arrays.copyOf(mp4, 50_000)).getMessage());
    }

    @Test
    void aMoovFirstMp4CutInItsSamplesNamesTheFirstSampleLost() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250-faststart.mp4");

        assertEquals("truncated: sample 276 of track 1 (159 bytes at byte 59978) lies past the end of the file at"
            + " 60000", failure("cut.mp4", Arrays.copyOf(mp4, 60_000)).getMessage());
    }

    @Test
    void aFragmentedMp4CutInAMoofNamesTheMoof() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250-frag.mp4");
        int moof = box(mp4, "moof", 1);

        assertEquals("truncated: the moof at byte " + moof + " claims " + u32(mp4, moof) + " bytes but the file ends"
            + " at " + (moof + 100), failure("cut.mp4", Arrays.copyOf(mp4, moof + 100)).getMessage());
    }

    @Test
    void sampleTimesForTooFewSamplesNameTheStts() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250.mp4");
        int stts = box(mp4, "stts", 0);
        assertEquals(500, u32(mp4, stts + 16), "one run of 500 frames");
        putU32(mp4, stts + 16, 400);

        assertEquals("corrupt: the stts at byte " + stts + " gives times to 400 of the 500 samples of track 1",
            failure("short-stts.mp4", mp4).getMessage());
    }

    @Test
    void aChunkPastTheEndOfTheFileNamesItsFirstSample() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250-faststart.mp4");
        int stco = box(mp4, "stco", 0);
        putU32(mp4, stco + 16, mp4.length - 10);

        assertEquals("truncated: sample 1 of track 1 (1431 bytes at byte " + (mp4.length - 10) + ") lies past the end"
            + " of the file at " + mp4.length, failure("far-chunk.mp4", mp4).getMessage());
    }

    @Test
    void aTrunClaimingMoreSamplesThanItHoldsNamesTheTrun() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250-frag.mp4");
        int trun = box(mp4, "trun", 0);
        int size = u32(mp4, trun);
        putU32(mp4, trun + 12, 100_000);

        String message = failure("long-trun.mp4", mp4).getMessage();

        assertTrue(message.startsWith("corrupt: the trun at byte " + trun + " claims 100000 samples of 8 bytes but"
            + " holds "), message);
        assertTrue(size < 100_000 * 8, "it holds far fewer");
    }

    @Test
    void isoBoxesWithoutAMoovAreNoMovie() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250.mp4");

        assertEquals("corrupt: the file has ISO BMFF boxes but no moov: it cannot be played",
            failure("no-moov.mp4", Arrays.copyOf(mp4, box(mp4, "moov", 0))).getMessage());
    }

    @Test
    void mpeg4Part2VideoIsDiscreteWithTheCommandThatReencodesIt() throws IOException {
        assertEquals("track 1 is MPEG-4 Part 2 video ('mp4v'), which browsers do not play from MP4 (Rondo streams"
            + " H.264, H.265, AV1 and VP9 video with AAC, Opus or MP3 audio); make it streamable with: "
            + "ffmpeg -i IN -c:v libx264 -c:a copy OUT.mp4", note("mpeg4.mp4", bytes("mpeg4.mp4")));
    }

    @Test
    void unsupportedAudioIsDiscreteWithTheCommandThatReencodesOnlyTheAudio() throws IOException {
        byte[] mp4 = bytes("plain.mp4");
        putType(mp4, box(mp4, "stsd", 1) + 16, "ac-3");

        assertEquals("track 2 is AC-3 (Dolby Digital) ('ac-3'), which browsers do not play from MP4 (Rondo streams"
            + " H.264, H.265, AV1 and VP9 video with AAC, Opus or MP3 audio); make it streamable with: "
            + "ffmpeg -i IN -c:v copy -c:a aac OUT.mp4", note("ac3.mp4", mp4));
    }

    @Test
    void anEncryptedTrackIsDiscrete() throws IOException {
        byte[] mp4 = bytes("plain.mp4");
        putType(mp4, box(mp4, "stsd", 0) + 16, "encv");

        assertEquals("track 1 is encrypted ('encv'): Rondo streams clear media only; ingest the unencrypted original",
            note("encrypted.mp4", mp4));
    }

    @Test
    void aTrackSwitchingSampleDescriptionsIsDiscrete() throws IOException {
        byte[] mp4 = bytes("h264-aac-gop250.mp4");
        int stsc = box(mp4, "stsc", 0);
        putU32(mp4, stsc + 24, 2);

        assertEquals("track 1 switches to sample description 2 of its stsd, and Rondo stores a track under one;"
            + " make it streamable with: ffmpeg -i IN -c:v libx264 -c:a aac OUT.mp4", note("two-entries.mp4", mp4));
    }

    @Test
    void anMp4WithoutAudioOrVideoIsDiscrete() throws IOException {
        byte[] mp4 = bytes("plain.mp4");
        System.arraycopy("text".getBytes(StandardCharsets.US_ASCII), 0, mp4, box(mp4, "hdlr", 0) + 16, 4);
        System.arraycopy("sbtl".getBytes(StandardCharsets.US_ASCII), 0, mp4, box(mp4, "hdlr", 1) + 16, 4);

        assertEquals("the MP4 holds no audio or video samples: there is nothing to stream", note("text.mp4", mp4));
    }

    @Test
    void aSourceCutAfterPlanningFailsTheFragmentThatReadsPastItsEnd() throws IOException {
        Path file = write("shrinks.mp4", bytes("h264-aac-gop250.mp4"));
        StoredMedia media = ((Preparation.Continuous) Mp4Remuxer.prepare(file, SECOND)).media();
        try (media; FileChannel out = FileChannel.open(dir.resolve("stored.mp4"), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE)) {
            media.writeInit(out);
            try (FileChannel source = FileChannel.open(file, StandardOpenOption.WRITE)) {
                source.truncate(40_000);
            }

            EOFException failure = assertThrows(EOFException.class, () -> media.writeFragment(19, out));

            assertTrue(failure.getMessage().startsWith("the source is 40000 bytes, too short for the samples planned at"
                + " byte "), failure.getMessage());
            IOException changed = assertThrows(IOException.class, () -> media.writeInit(out));
            assertTrue(changed.getMessage().endsWith("it changed meanwhile"), changed.getMessage());
        }
    }
}

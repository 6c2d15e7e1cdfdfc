package io.rondo.content.media.matroska;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static io.rondo.content.media.IndexChecks.clip;
import static io.rondo.content.media.isobmff.RemuxChecks.assertOneMoofAndMdatPerFragment;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.isobmff.RemuxChecks;
import io.rondo.content.media.isobmff.SampleTrack;
import io.rondo.content.media.isobmff.TrackHeader;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Matroska with H.264 or H.265 and AAC, MP3 or Opus stored as ingest stores it: a fragmented MP4 of
 * one moof + mdat per round, which ffmpeg decodes without a word, holding the source's packets
 * byte for byte, its keyframes at the source's presentation times, as long as the source.
 */
class MatroskaMp4RemuxerTest {

    private static final long VIDEO_FRAME_NS = 40 * MS;

    @TempDir
    Path dir;

    /** The committed clips (see the README of src/test/resources/media): their codecs and length. */
    static Stream<Arguments> clips() {
        return Stream.of(
            Arguments.of("h264-aac.mkv", "avc1.64000B, mp4a.40.2", 2),
            // libx264's defaults: B-frames (presented out of decode order), AAC at 44.1 kHz
            Arguments.of("h264-bframes.mkv", "avc1.64000B, mp4a.40.2", 4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void isAFragmentedMp4OfOneFragmentPerRound(String name, String codecs, int seconds) throws IOException {
        Path stored = dir.resolve(name + ".mp4");

        MediaIndex index = store(clip(name), stored);

        assertWellFormed(index, Files.size(stored));
        assertEquals("mp4", index.container());
        assertEquals("video/mp4", index.mimeType());
        assertEquals(codecs, index.codecs());
        assertOneFragmentPerRound(index, seconds);
        for (int k = 0; k < seconds; k++) {
            assertEquals(k * SECOND, index.fragments().get(k).startNs(), "fragment " + k);
        }
        assertEquals(0, index.fragments().get(0).keyframeNs() / VIDEO_FRAME_NS, "the first round starts at a keyframe");
        assertOneMoofAndMdatPerFragment(index, stored);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void ffmpegFindsTheSourcesPacketsKeyframesAndLength(String name) throws IOException {
        Ffmpeg.assumeInstalled();
        Path stored = dir.resolve(name + ".mp4");

        store(clip(name), stored);

        assertSameMedia(clip(name), stored);
    }

    /** Matroska that ffmpeg writes with the other codecs the remuxer takes: H.265, MP3, Opus. */
    static Stream<Arguments> encodings() {
        return Stream.of(
            Arguments.of("h264-opus.mkv", "libx264", "libopus", "avc1.64000B, opus"),
            Arguments.of("h264-mp3.mkv", "libx264", "libmp3lame", "avc1.64000B, mp4a.6B"),
            Arguments.of("h265-aac.mkv", "libx265", "aac", "hvc1.1.6.L30.90, mp4a.40.2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("encodings")
    void otherCodecsRemuxToo(String name, String video, String audio, String codecs) throws IOException {
        Ffmpeg.assumeInstalled();
        Path source = dir.resolve(name);
        Ffmpeg.Run made = Ffmpeg.run("ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i",
            "testsrc=size=160x120:rate=25:duration=3", "-f", "lavfi", "-i", "sine=sample_rate=48000:duration=3",
            "-c:v", video, "-b:v", "50k", "-pix_fmt", "yuv420p", "-c:a", audio, "-ac", "2", source.toString());
        assumeTrue(made.exit() == 0, "ffmpeg cannot encode " + name + ": "
            + made.err());
        Path stored = dir.resolve(name + ".mp4");

        MediaIndex index = store(source, stored);

        assertEquals(codecs, index.codecs());
        assertOneFragmentPerRound(index, 3);
        assertOneMoofAndMdatPerFragment(index, stored);
        assertSameMedia(source, stored);
    }

    @Test
    void unsupportedCodecsStayDiscrete() throws IOException {
        assertInstanceOf(Preparation.Discrete.class, WebmRemuxer.prepare(clip("mpeg2-ac3.mkv"), SECOND));
    }

    @Test
    void decodeTimesPrecedeThePresentationTimesWhichAreTheSources() throws IOException {
        Path source = clip("h264-bframes.mkv");
        Path stored = dir.resolve("h264-bframes.mp4");
        store(source, stored);
        List<Long> blockNs = new ArrayList<>();
        try (MediaFile in = MediaFile.open(source)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            BlockCursor block = demuxer.blocks();
            while (block.next()) {
                if (block.track() == 1) {
                    blockNs.add(demuxer.ns(block.timecode(), "test"));
                }
            }
        }

        SampleTrack video = RemuxChecks.tracks(stored).get(0);
        long timescale = video.header().timescale();
        assertEquals(MatroskaMp4Remuxer.VIDEO_TIMESCALE, timescale);
        assertEquals(blockNs.size(), video.count(), "a sample per block");
        boolean reordered = false;
        for (int i = 0; i < video.count(); i++) {
            assertTrue(video.compositionOffset(i) >= 0, "sample " + i + " is not presented before it is decoded");
            long presentation = video.decodeTime(i) + video.compositionOffset(i) - video.header().editShift();
            assertEquals(blockNs.get(i), Ticks.toNs(presentation, timescale, "test"), "sample " + i + " presented");
            assertEquals(VIDEO_FRAME_NS, Ticks.toNs(video.duration(i), timescale, "test"), "sample " + i + " lasts");
            reordered |= i > 0 && blockNs.get(i) < blockNs.get(i - 1);
        }
        assertTrue(reordered, "the clip has B-frames, presented before frames decoded earlier");
        assertTrue(video.sync(0));
    }

    @Test
    void anOldAacCodecIdWithoutCodecPrivateGetsItsAudioSpecificConfig() throws MediaFormatException {
        MatroskaDemuxer.Track aac = audio("A_AAC/MPEG4/LC", null, 48000, 2);

        assertTrue(MatroskaMp4Remuxer.remuxes(List.of(aac)));
        // LC (2), 48 kHz (index 3), two channels: 00010 0011 0010 000
        assertArrayEquals(new byte[] {0x11, (byte) 0x90}, MatroskaMp4Remuxer.audioSpecificConfig(aac));
        TrackHeader header = new TrackHeader(2, TrackHeader.AUDIO, 48000, MatroskaMp4Remuxer.audioEntry(aac), -1,
            TrackHeader.UNDETERMINED, 3, 0, 0x100, TrackHeader.IDENTITY, 0, 0, 0, -1);
        assertEquals("mp4a.40.2", RemuxChecks.codecs(header));
        assertFalse(MatroskaMp4Remuxer.remuxes(List.of(audio("A_AAC/MPEG4/LC", null, 47000, 2))),
            "a rate AAC does not list");
    }

    @Test
    void opusHeadBecomesABigEndianDops() {
        // OpusHead, version 1, 2 channels, pre-skip 312, 48 kHz input, gain -256, mapping family 0; little-endian
        byte[] head = {'O', 'p', 'u', 's', 'H', 'e', 'a', 'd', 1, 2, 0x38, 0x01, (byte) 0x80, (byte) 0xBB, 0, 0,
            0, (byte) 0xFF, 0};
        MatroskaDemuxer.Track opus = audio("A_OPUS", head, 48000, 2);

        assertTrue(MatroskaMp4Remuxer.remuxes(List.of(opus)));
        byte[] entry = MatroskaMp4Remuxer.audioEntry(opus);
        byte[] dOps = Arrays.copyOfRange(entry, 36, entry.length);
        assertArrayEquals(new byte[] {0, 0, 0, 19, 'd', 'O', 'p', 's', 0, 2, 0x01, 0x38, 0, 0, (byte) 0xBB,
            (byte) 0x80, (byte) 0xFF, 0, 0}, dOps);
        assertFalse(MatroskaMp4Remuxer.remuxes(List.of(audio("A_OPUS", Arrays.copyOf(head, 12), 48000, 2))),
            "a CodecPrivate too short for an OpusHead");
    }

    private static MatroskaDemuxer.Track audio(String codecId, byte[] codecPrivate, double rate, long channels) {
        return new MatroskaDemuxer.Track(2, MatroskaDemuxer.AUDIO, codecId, codecPrivate == null ? null
            : ByteBuffer.wrap(codecPrivate), 0, 0, false, ByteBuffer.allocate(0), 0, 0, 0, rate, channels);
    }

    /**
     * The media lasts {@code seconds} give or take two frames (ffmpeg starts the video after the
     * AAC priming it shifts out), and has a fragment for each round it reaches into.
     */
    private static void assertOneFragmentPerRound(MediaIndex index, int seconds) {
        assertTrue(Math.abs(index.durationNs() - seconds * SECOND) < 2 * VIDEO_FRAME_NS, "lasts " + index.durationNs());
        assertEquals((index.durationNs() + SECOND - 1) / SECOND, index.fragments().size(), "one fragment per round");
    }

    private static MediaIndex store(Path source, Path stored) throws IOException {
        Preparation prepared = WebmRemuxer.prepare(source, SECOND);
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class, prepared, prepared::toString)
            .media()) {
            StoredFiles.write(media, stored);
            return media.index();
        }
    }

    /** ffmpeg decodes {@code stored} silently, and finds in it the packets, keyframes and length of {@code source}. */
    private static void assertSameMedia(Path source, Path stored) throws IOException {
        Ffmpeg.assertDecodesSilently(stored);
        for (int stream = 0; stream < 2; stream++) {
            assertEquals(sizesAndHashes(source, stream), sizesAndHashes(stored, stream),
                "stream " + stream + ": the same packets, byte for byte");
        }
        List<Double> sourceKeyframes = keyframeSeconds(source);
        List<Double> storedKeyframes = keyframeSeconds(stored);
        assertEquals(sourceKeyframes.size(), storedKeyframes.size(), "keyframes " + storedKeyframes);
        for (int i = 0; i < sourceKeyframes.size(); i++) {
            assertEquals(sourceKeyframes.get(i), storedKeyframes.get(i), 0.0005, "keyframe " + i + " presented at");
        }
        double frame = VIDEO_FRAME_NS / (double) SECOND;
        assertEquals(Ffmpeg.endSeconds(source), Ffmpeg.endSeconds(stored), frame, "the length, within a frame");
    }

    private static List<String> sizesAndHashes(Path file, int stream) {
        Ffmpeg.Run probe = Ffmpeg.run("ffprobe", "-v", "error", "-select_streams", String.valueOf(stream),
            "-show_packets", "-show_data_hash", "MD5", "-show_entries", "packet=size,data_hash", file.toString());
        assertEquals(0, probe.exit(), probe.err());
        List<String> lines = Arrays.stream(probe.out().split("\n"))
            .filter(l -> l.startsWith("size=") || l.startsWith("data_hash=")).toList();
        assertTrue(lines.size() > 2, "packets in stream " + stream + " of " + file);
        return lines;
    }

    private static List<Double> keyframeSeconds(Path file) {
        Ffmpeg.Run probe = Ffmpeg.run("ffprobe", "-v", "error", "-select_streams", "v", "-show_entries",
            "packet=pts_time,flags", "-of", "csv=p=0", file.toString());
        assertEquals(0, probe.exit(), probe.err());
        List<Double> times = new ArrayList<>();
        for (String line : probe.out().split("\n")) {
            String[] fields = line.trim().split(",");
            if (fields.length == 2 && fields[1].startsWith("K")) {
                times.add(Double.parseDouble(fields[0]));
            }
        }
        times.sort(null);
        return times;
    }
}

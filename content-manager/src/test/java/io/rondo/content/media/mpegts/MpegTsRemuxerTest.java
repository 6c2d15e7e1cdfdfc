package io.rondo.content.media.mpegts;

import static io.rondo.content.media.IndexChecks.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.IndexChecks;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
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
 * MPEG transport streams as ffmpeg writes them ({@code -f mpegts}, a keyframe every second) are
 * stored as fragmented MP4 of one fragment per round, each starting at a keyframe, which ffmpeg
 * decodes without a word and finds holding the source's frames at the source's times from 0; a
 * stream of a codec browsers do not play makes the file discrete with a note that says how to fix it.
 */
class MpegTsRemuxerTest {

    private static final long VIDEO_FRAME_NS = SECOND / 25;
    private static final String VIDEO = "testsrc=size=160x120:rate=25:duration=4";
    private static final String AUDIO = "sine=frequency=440:sample_rate=48000:duration=4";

    @TempDir
    Path dir;

    static Stream<Arguments> playable() {
        return Stream.of(
            Arguments.of("h264-aac.ts", List.of("-c:v", "libx264", "-c:a", "aac"), "avc1.64000B, mp4a.40.2"),
            Arguments.of("h264-mp3.ts", List.of("-c:v", "libx264", "-c:a", "libmp3lame"), "avc1.64000B, mp4a.6B"),
            Arguments.of("hevc-aac.ts", List.of("-c:v", "libx265", "-c:a", "aac"), "hev1.1.6.L30.90, mp4a.40.2"),
            Arguments.of("h264-aac-bframes.ts", List.of("-c:v", "libx264", "-bf", "3", "-c:a", "aac"),
                "avc1.64000B, mp4a.40.2"),
            Arguments.of("h264-aac.m2ts", List.of("-c:v", "libx264", "-c:a", "aac", "-mpegts_m2ts_mode", "1"),
                "avc1.64000B, mp4a.40.2"),
            Arguments.of("recording-without-extension", List.of("-c:v", "libx264", "-c:a", "aac"),
                "avc1.64000B, mp4a.40.2"),
            Arguments.of("pts-wraps.ts", List.of("-c:v", "libx264", "-c:a", "aac", "-output_ts_offset", "95442"),
                "avc1.64000B, mp4a.40.2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("playable")
    void isStoredAsFragmentedMp4OfOneFragmentPerRoundFromAKeyframe(String name, List<String> codecs,
                                                                   String codecsString) throws IOException {
        Path source = make(name, codecs);
        Path stored = dir.resolve(name + ".mp4");

        MediaIndex index = store(source, stored);

        assertEquals("mp4", index.container());
        assertEquals(codecsString, index.codecs());
        double frame = VIDEO_FRAME_NS / (double) SECOND;
        assertEquals(4.0, index.durationNs() / (double) SECOND, 2 * frame, "lasts 4 s");
        assertEquals((index.durationNs() + SECOND - 1) / SECOND, index.fragments().size(), "one fragment per round");
        for (Fragment f : index.fragments()) {
            assertTrue(f.keyframeFirst(), "a round starts at its keyframe: " + f);
            assertTrue(f.keyframeNs() >= f.startNs() && f.keyframeNs() < f.startNs() + 2 * VIDEO_FRAME_NS,
                "at its start: " + f);
        }
        Ffmpeg.assertDecodesSilently(stored);
        Ffmpeg.Run start = Ffmpeg.run("ffprobe", "-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0",
            stored.toString());
        assertEquals(0.0, Double.parseDouble(start.out().strip()), 0.0005, "the stored copy starts at 0");
        assertEquals(presentations(source, "v"), presentations(stored, "v"), "every video frame, at its time from 0");
        List<Double> sourceAudio = presentations(source, "a");
        List<Double> storedAudio = presentations(stored, "a");
        assertEquals(sourceAudio.size(), storedAudio.size(), "every audio frame");
        for (int i = 0; i < sourceAudio.size(); i++) {
            assertEquals(sourceAudio.get(i), storedAudio.get(i), 0.0005, "audio frame " + i);
        }
        assertEquals(codec(source, "v") + " " + codec(source, "a"), codec(stored, "v") + " " + codec(stored, "a"));
    }

    static Stream<Arguments> unplayable() {
        return Stream.of(
            Arguments.of("h264-ac3.ts", List.of("-c:v", "libx264", "-c:a", "ac3"), "AC-3 (Dolby Digital)",
                "ffmpeg -i h264-ac3.ts -c:v copy -c:a aac h264-ac3.mp4"),
            Arguments.of("mpeg2-mp2.ts", List.of("-c:v", "mpeg2video", "-c:a", "mp2"), "MPEG-2 video",
                "ffmpeg -i mpeg2-mp2.ts -c:v libx264 -c:a copy mpeg2-mp2.mp4"),
            Arguments.of("h264-mp2.ts", List.of("-c:v", "libx264", "-c:a", "mp2"), "MPEG audio layer II (MP2)",
                "ffmpeg -i h264-mp2.ts -c:v copy -c:a aac h264-mp2.mp4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unplayable")
    void withACodecBrowsersDoNotPlayIsDiscreteWithANote(String name, List<String> codecs, String codec,
                                                        String command) throws IOException {
        Path source = make(name, codecs);

        Preparation prepared = MediaIndexers.prepare(source, SECOND, dir);

        String note = assertInstanceOf(Preparation.Discrete.class, prepared).note();
        assertTrue(note != null && note.contains(codec) && note.endsWith(command), note);
    }

    @Test
    void videoWithoutAFrameADecoderCanStartAtIsDiscreteWithANote() throws IOException {
        Path source = make("no-keyframe.ts", List.of("-c:v", "libx264", "-c:a", "aac"));
        byte[] bytes = Files.readAllBytes(source);
        // IDR slices (NAL type 5) become non-IDR ones (type 1), SPS (7) and PPS (8) filler data (12)
        for (int at = 0; at + 4 < bytes.length; at++) {
            if (bytes[at] == 0 && bytes[at + 1] == 0 && bytes[at + 2] == 1) {
                int type = bytes[at + 3] & 0x1F;
                if (type == 5 || type == 7 || type == 8) {
                    bytes[at + 3] = (byte) ((bytes[at + 3] & 0xE0) | (type == 5 ? 1 : 12));
                }
            }
        }
        Files.write(source, bytes);

        Preparation prepared = MediaIndexers.prepare(source, SECOND, dir);

        String note = assertInstanceOf(Preparation.Discrete.class, prepared).note();
        assertTrue(note != null && note.startsWith("stream 0x0100 (H.264) holds 100 frames but none a decoder")
            && note.endsWith("ffmpeg -i no-keyframe.ts -c:v libx264 -c:a copy no-keyframe.mp4"), note);
    }

    @Test
    void aStreamOfNoAudioOrVideoIsDiscreteWithANote() throws IOException {
        byte[] pat = section(0x00, new byte[] {0x00, 0x01, (byte) 0xE1, 0x00});
        byte[] pmt = section(0x02, new byte[] {(byte) 0xE1, 0x01, (byte) 0xF0, 0x00, 0x06, (byte) 0xE1, 0x01,
            (byte) 0xF0, 0x02, 0x56, 0x00});
        byte[] ts = new byte[4 * MpegTsDemuxer.PACKET_BYTES];
        for (int i = 0; i < 4; i++) {
            packet(ts, i, i % 2 == 0 ? 0 : 0x100, i / 2, i % 2 == 0 ? pat : pmt);
        }
        Path source = Files.write(dir.resolve("teletext.ts"), ts);

        Preparation prepared = MediaIndexers.prepare(source, SECOND, dir);

        assertEquals("the MPEG transport stream holds no audio or video stream Rondo knows: there is nothing to stream",
            assertInstanceOf(Preparation.Discrete.class, prepared).note());
    }

    /** A PSI section of table {@code table}, id 1, version 0, holding {@code body}, with its CRC-32. */
    private static byte[] section(int table, byte[] body) {
        byte[] s = new byte[8 + body.length + 4];
        int length = 5 + body.length + 4;
        s[0] = (byte) table;
        s[1] = (byte) (0xB0 | length >> 8);
        s[2] = (byte) length;
        s[4] = 0x01;
        s[5] = (byte) 0xC1;
        System.arraycopy(body, 0, s, 8, body.length);
        int crc = -1;
        for (int i = 0; i < s.length - 4; i++) {
            crc ^= (s[i] & 0xFF) << 24;
            for (int k = 0; k < 8; k++) {
                crc = crc < 0 ? (crc << 1) ^ 0x04C11DB7 : crc << 1;
            }
        }
        for (int i = 0; i < 4; i++) {
            s[s.length - 4 + i] = (byte) (crc >>> (24 - 8 * i));
        }
        return s;
    }

    /** Transport packet {@code n} of {@code ts}: PID {@code pid}, a section starting in it, stuffing after. */
    private static void packet(byte[] ts, int n, int pid, int counter, byte[] section) {
        int at = n * MpegTsDemuxer.PACKET_BYTES;
        Arrays.fill(ts, at, at + MpegTsDemuxer.PACKET_BYTES, (byte) 0xFF);
        ts[at] = MpegTsDemuxer.SYNC;
        ts[at + 1] = (byte) (0x40 | pid >> 8);
        ts[at + 2] = (byte) pid;
        ts[at + 3] = (byte) (0x10 | counter);
        ts[at + 4] = 0;
        System.arraycopy(section, 0, ts, at + 5, section.length);
    }

    @Test
    void damagedPacketsAreSkippedAndTheRestIsStored() throws IOException {
        Path source = make("damaged.ts", List.of("-c:v", "libx264", "-c:a", "aac"));
        byte[] bytes = Files.readAllBytes(source);
        for (int at = bytes.length / 3; at < bytes.length / 3 + 40 * 188; at += 7) {
            bytes[at] = (byte) (bytes[at] ^ 0x5A);
        }
        Files.write(source, bytes);
        Path stored = dir.resolve("damaged.mp4");

        MediaIndex index = store(source, stored);

        assertTrue(index.durationNs() > 3 * SECOND, "the undamaged frames remain: " + index.durationNs());
        Ffmpeg.Run decode = Ffmpeg.run("ffmpeg", "-v", "error", "-nostdin", "-i", stored.toString(), "-f", "null",
            "-");
        assertEquals(0, decode.exit(), decode.err());
    }

    private Path make(String name, List<String> codecs) {
        Ffmpeg.assumeInstalled();
        Path source = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", VIDEO,
            "-f", "lavfi", "-i", AUDIO, "-g", "25", "-pix_fmt", "yuv420p", "-b:v", "100k"));
        command.addAll(codecs);
        command.addAll(List.of("-f", "mpegts", source.toString()));
        Ffmpeg.Run made = Ffmpeg.run(command.toArray(String[]::new));
        assumeTrue(made.exit() == 0, "ffmpeg cannot make " + name + ": " + made.err());
        return source;
    }

    private MediaIndex store(Path source, Path stored) throws IOException {
        Preparation prepared = MediaIndexers.prepare(source, SECOND, dir);
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class, prepared, prepared::toString)
            .media()) {
            IndexChecks.assertWellFormed(media.index(), media.size());
            StoredFiles.write(media, stored);
            return media.index();
        }
    }

    /** The presentation times of a stream's packets, in seconds from the file's first, in presentation order. */
    private static List<Double> presentations(Path file, String stream) {
        Ffmpeg.Run probe = Ffmpeg.run("ffprobe", "-v", "error", "-select_streams", stream, "-show_entries",
            "packet=pts_time:format=start_time", "-of", "csv=p=0", file.toString());
        assertEquals(0, probe.exit(), probe.err());
        String[] lines = probe.out().strip().split("\\s*\n\\s*");
        double start = Double.parseDouble(lines[lines.length - 1].split(",")[0]);
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < lines.length - 1; i++) {
            times.add(Math.round((Double.parseDouble(lines[i].split(",")[0]) - start) * 1000) / 1000.0);
        }
        times.sort(null);
        return times;
    }

    private static String codec(Path file, String stream) {
        Ffmpeg.Run probe = Ffmpeg.run("ffprobe", "-v", "error", "-select_streams", stream, "-show_entries",
            "stream=codec_name,width,height,sample_rate,channels", "-of", "csv=p=0", file.toString());
        assertEquals(0, probe.exit(), probe.err());
        return probe.out().strip().split("\\s+")[0];
    }
}

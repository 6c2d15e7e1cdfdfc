package io.rondo.content.media.matroska;

import static io.rondo.content.media.IndexChecks.clip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.Listings;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.matroska.MatroskaDemuxer.Track;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The block walk a remuxer builds on: each block's track, time, frame bytes, keyframe flag and lacing. */
class MatroskaDemuxerTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"vp9-opus-long-gop.mkv", "vp8-vorbis-long-gop.webm", "h264-aac.mkv"})
    void findsTheFramesFfmpegFinds(String name) throws IOException {
        Ffmpeg.assumeInstalled();
        Path file = clip(name);
        Map<Integer, List<String>> walked = new TreeMap<>();
        try (MediaFile in = MediaFile.open(file)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            BlockCursor block = demuxer.blocks();
            while (block.next()) {
                assertEquals(0, block.lacing(), "ffmpeg does not lace");
                int size = (int) (block.frameEnd() - block.frameOffset());
                String hash = MatroskaWalk.md5(in.read(block.frameOffset(), size));
                walked.computeIfAbsent((int) block.track() - 1, t -> new ArrayList<>()).add(
                    size + " " + (block.keyframe() ? "K" : "_") + " MD5:" + hash);
            }
        }

        Map<Integer, List<String>> probed = new TreeMap<>();
        Ffmpeg.packets(file).forEach((stream, packets) -> probed.put(stream, packets.stream()
            .map(p -> p.substring(p.indexOf(' ') + 1)).map(p -> p.replaceFirst(" (.)\\S* ", " $1 ")).toList()));
        Listings.assertSame(probed, walked, "frame");
    }

    @Test
    void readsALacedBlocksFrameCount() throws IOException {
        byte[] laced = SyntheticWebm.element(Ebml.SIMPLE_BLOCK, new byte[] {(byte) 0x82, 0, 40, (byte) 0x82, 2, 3, 4,
            10, 11, 12, 13, 14, 15, 16, 17, 18, 19});
        byte[] cluster = SyntheticWebm.element(Ebml.CLUSTER, SyntheticWebm.cat(SyntheticWebm.uint(Ebml.TIMECODE, 1000),
            laced));
        Path file = Files.write(dir.resolve("laced.webm"), SyntheticWebm.cat(
            new SyntheticWebm().withAudio().unknownSizes().write().bytes(), cluster));

        try (MediaFile in = MediaFile.open(file)) {
            BlockCursor block = MatroskaDemuxer.open(in).orElseThrow().blocks();

            assertTrue(block.next());
            assertEquals(2, block.track());
            assertEquals(1040, block.timecode());
            assertEquals(1, block.lacing(), "Xiph lacing");
            assertEquals(3, block.frames());
            assertTrue(block.keyframe());
            assertEquals(file.toFile().length() - 13, block.frameOffset(), "the lace count starts the frame data");
            assertEquals(file.toFile().length(), block.frameEnd());
            assertFalse(block.next());
        }
    }

    @Test
    void aBlockGroupWithAReferenceBlockIsNoKeyframe() throws IOException {
        byte[] block = SyntheticWebm.element(Ebml.BLOCK, new byte[] {(byte) 0x81, 0, 0, 0, 1, 2, 3});
        byte[] reference = SyntheticWebm.element(Ebml.REFERENCE_BLOCK, new byte[] {(byte) 0xD8});
        byte[] cluster = SyntheticWebm.element(Ebml.CLUSTER, SyntheticWebm.cat(SyntheticWebm.uint(Ebml.TIMECODE, 0),
            SyntheticWebm.element(Ebml.BLOCK_GROUP, SyntheticWebm.cat(block, SyntheticWebm.uint(Ebml.BLOCK_DURATION,
                40))), SyntheticWebm.element(Ebml.BLOCK_GROUP, SyntheticWebm.cat(block, reference))));
        Path file = Files.write(dir.resolve("groups.webm"), SyntheticWebm.cat(
            new SyntheticWebm().unknownSizes().write().bytes(), cluster));

        try (MediaFile in = MediaFile.open(file)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            Track video = demuxer.tracks().get(0);
            BlockCursor cursor = demuxer.blocks();

            assertTrue(video.isVideo());
            assertTrue(cursor.next());
            assertTrue(cursor.keyframe(), "no ReferenceBlock");
            assertEquals(40, cursor.durationTicks());
            assertTrue(cursor.next());
            assertFalse(cursor.keyframe(), "a ReferenceBlock");
            assertEquals(-1, cursor.durationTicks());
            assertFalse(cursor.next());
        }
    }

    /** A file whose one Cluster holds a SimpleBlock of track 2: {@code header} (flags, lace header), 10 bytes. */
    private Path lacedFile(String name, byte[] header) throws IOException {
        byte[] data = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
        byte[] laced = SyntheticWebm.element(Ebml.SIMPLE_BLOCK, SyntheticWebm.cat(new byte[] {(byte) 0x82, 0, 40},
            header, data));
        byte[] cluster = SyntheticWebm.element(Ebml.CLUSTER, SyntheticWebm.cat(SyntheticWebm.uint(Ebml.TIMECODE, 0),
            laced));
        return Files.write(dir.resolve(name), SyntheticWebm.cat(new SyntheticWebm().withAudio().unknownSizes().write()
            .bytes(), cluster));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"xiph", "ebml", "fixed", "none"})
    void findsEachLacedFramesOffsetAndSize(String lacing) throws IOException {
        byte[] header = switch (lacing) {
            // three frames: 3 and 4 bytes, the last one the rest (3)
            case "xiph" -> new byte[] {(byte) 0x82, 2, 3, 4};
            // 3 bytes, then 4 (a difference of +1: a 1-byte signed EBML number, 1 + 63), then the rest
            case "ebml" -> new byte[] {(byte) 0x86, 2, (byte) 0x83, (byte) 0xC0};
            // two frames of 5 bytes
            case "fixed" -> new byte[] {(byte) 0x84, 1};
            default -> new byte[] {(byte) 0x80};
        };
        int[] expected = switch (lacing) {
            case "xiph", "ebml" -> new int[] {3, 4, 3};
            case "fixed" -> new int[] {5, 5};
            default -> new int[] {10};
        };
        Path file = lacedFile(lacing + ".webm", header);
        long dataStart = Files.size(file) - 10;

        try (MediaFile in = MediaFile.open(file)) {
            BlockCursor block = MatroskaDemuxer.open(in).orElseThrow().blocks();
            assertTrue(block.next());
            long[] offsets = new long[block.frames()];
            int[] sizes = new int[block.frames()];
            block.frames(offsets, sizes);

            assertArrayEquals(expected, sizes);
            long at = dataStart;
            for (int i = 0; i < sizes.length; i++) {
                assertEquals(at, offsets[i], "frame " + i);
                at += sizes[i];
            }
        }
    }

    @Test
    void refusesLaceSizesPastTheBlock() throws IOException {
        Path file = lacedFile("overrun.webm", new byte[] {(byte) 0x82, 1, (byte) 200});

        try (MediaFile in = MediaFile.open(file)) {
            BlockCursor block = MatroskaDemuxer.open(in).orElseThrow().blocks();
            assertTrue(block.next());

            MediaFormatException e = assertThrows(MediaFormatException.class,
                () -> block.frames(new long[2], new int[2]));
            assertTrue(e.getMessage().contains("laces frames past the end of its block"), e.getMessage());
        }
    }
}

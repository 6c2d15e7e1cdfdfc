package io.rondo.content.media.matroska;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.clip;
import static io.rondo.content.media.matroska.MatroskaWalk.assertOneClusterPerRound;
import static io.rondo.content.media.matroska.MatroskaWalk.continuous;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.FfmpegCommands;
import io.rondo.content.media.Listings;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the WebM remuxer makes of Matroska as other muxers write it ({@link SyntheticWebm}), of
 * codecs no browser plays from WebM, and of broken files.
 */
class WebmRemuxerEdgeCasesTest {

    @TempDir
    Path dir;

    private Path file(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    private Path stored(StoredMedia media) throws IOException {
        return StoredFiles.write(media, dir.resolve("stored.webm"));
    }

    /**
     * Muxers' ways, each for four Clusters of 2.5 s with video and audio; the rounds of 1 s that hold a
     * video keyframe (every Cluster starts with one; a BlockGroup without ReferenceBlock is one too);
     * ticks per ms.
     */
    static Stream<Arguments> muxers() {
        return Stream.of(
            Arguments.of("unknown-size Segment and Clusters (MediaRecorder)",
                (UnaryOperator<SyntheticWebm>) w -> w.unknownSizes().duration(null).defaultDurationNs(40 * MS),
                List.of(0, 2, 5, 7), 1),
            Arguments.of("Cues and Tags after the last Cluster",
                (UnaryOperator<SyntheticWebm>) SyntheticWebm::cuesAndTagsAtEnd, List.of(0, 2, 5, 7), 1),
            Arguments.of("BlockGroups with BlockDuration, no Duration",
                (UnaryOperator<SyntheticWebm>) w -> w.blockGroupsInLastCluster().duration(null),
                List.of(0, 2, 5, 7, 8, 9), 1),
            Arguments.of("a TimecodeScale of 0.1 ms", (UnaryOperator<SyntheticWebm>) w -> w.timecodeScale(100_000),
                List.of(0, 2, 5, 7), 10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("muxers")
    void remuxesWhatOtherMuxersWrite(String name, UnaryOperator<SyntheticWebm> variant, List<Integer> keyframeRounds,
                                     long ticksPerMs) throws IOException {
        SyntheticWebm webm = variant.apply(new SyntheticWebm().withAudio()).clusters(4, 0, 2500 * ticksPerMs, 63, 200);
        Path source = file("synthetic.webm", webm.write().bytes());

        try (StoredMedia media = continuous(source, SECOND)) {
            MediaIndex index = media.index();
            Path stored = stored(media);

            assertEquals(10, index.fragments().size(), index.fragments().toString());
            assertTrue(Math.abs(index.durationNs() - 10 * SECOND) <= 40 * MS, "10 s, was " + index.durationNs());
            assertOneClusterPerRound(stored, index, SECOND, 0);
            MatroskaWalk.assertSameBlocks(source, stored);
            assertEquals(keyframeRounds, keyframeRounds(index));
        }
    }

    private static List<Integer> keyframeRounds(MediaIndex index) {
        List<Fragment> fragments = index.fragments();
        return IntStream.range(0, fragments.size()).filter(i -> fragments.get(i).hasKeyframe())
            .boxed().toList();
    }

    @Test
    void aRoundWithoutBlocksIsAClusterWithOnlyItsTimecode() throws IOException {
        Path source = file("gap.webm", new SyntheticWebm().cluster(1500, 1000, 25, 100).cluster(4000, 1000, 25, 100)
            .write().bytes());

        try (StoredMedia media = continuous(source, SECOND)) {
            MediaIndex index = media.index();
            Path stored = stored(media);

            assertEquals(5, index.fragments().size(), "rounds 0 to 4, 0 and 3 empty");
            assertEquals(5 * SECOND, index.durationNs());
            for (int empty : new int[] {0, 3}) {
                Fragment f = index.fragments().get(empty);
                assertEquals(Fragment.NO_KEYFRAME, f.keyframeNs());
                assertTrue(f.length() < 16, "an empty Cluster: " + f);
            }
            assertEquals(1500 * MS, index.fragments().get(1).keyframeNs());
            assertOneClusterPerRound(stored, index, SECOND, 0);
            MatroskaWalk.assertSameBlocks(source, stored);
        }
    }

    @Test
    void putsBlocksInTimeOrderWhereTheSourcesClustersStepBack() throws IOException {
        Path source = file("late-audio.webm", lateAudio(3));

        try (StoredMedia media = continuous(source, SECOND)) {
            Path stored = stored(media);

            assertEquals(3, media.index().fragments().size());
            assertOneClusterPerRound(stored, media.index(), SECOND, 40 * MS);
            MatroskaWalk.assertSameBlocks(source, stored);
        }
    }

    /**
     * {@code seconds} Clusters of 1 s, each in time order: video every 40 ms from 20 ms, audio every
     * 40 ms from 0, but each Cluster starts with the audio block of 40 ms before it, as a muxer that
     * flushes audio late does. Where one Cluster ends (video at 980 ms) the next starts earlier (960 ms).
     */
    private static byte[] lateAudio(int seconds) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new SyntheticWebm().withAudio().unknownSizes().duration(null).write().bytes());
        for (int c = 0; c < seconds; c++) {
            ByteArrayOutputStream blocks = new ByteArrayOutputStream();
            for (int ms = -40; ms < 1000; ms += 20) {
                boolean video = ms % 40 != 0;
                if (video && ms < 0 || !video && ms >= 960 || c == 0 && ms < 0) {
                    continue;
                }
                byte flags = (byte) (!video || ms == 20 ? 0x80 : 0);
                blocks.writeBytes(SyntheticWebm.element(Ebml.SIMPLE_BLOCK, new byte[] {(byte) (video ? 0x81 : 0x82),
                    (byte) (ms >> 8), (byte) ms, flags, 1, 2, 3, 4, (byte) c, (byte) ms}));
            }
            out.writeBytes(SyntheticWebm.element(Ebml.CLUSTER, SyntheticWebm.cat(SyntheticWebm.uint(Ebml.TIMECODE,
                c * 1000L), blocks.toByteArray())));
        }
        return out.toByteArray();
    }

    @Test
    void refusesABlockTooFarFromItsRoundsStartForSixteenBits() throws IOException {
        Path source = file("microseconds.webm", new SyntheticWebm().timecodeScale(1000).clusters(40, 0, 25_000, 1, 50)
            .write().bytes());

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> WebmRemuxer.prepare(source, SECOND));
        assertTrue(e.getMessage().matches("unsupported: the SimpleBlock at byte \\d+ \\(track 1, at 0\\.050 s\\) is"
            + " 50000 ticks of 1000 ns from the start of its round at 0\\.000 s.*"), e.getMessage());
    }

    @Test
    void anEbmlFileOfAnotherDocTypeIsNoMedia() throws IOException {
        Path source = file("other.ebml", new SyntheticWebm().docType("other").clusters(2, 0, 1000, 25, 50).write()
            .bytes());

        assertEquals(new Preparation.Discrete(null), WebmRemuxer.prepare(source, SECOND));
    }

    @Test
    void h264AndAacMatroskaIsRemuxedToFragmentedMp4() throws IOException {
        Preparation prepared = WebmRemuxer.prepare(clip("h264-aac.mkv"), SECOND);

        try (StoredMedia media = ((Preparation.Continuous) prepared).media()) {
            assertEquals("mp4", media.index().container());
            assertEquals("avc1.64000B, mp4a.40.2", media.index().codecs());
        }
    }

    @Test
    void otherCodecsAreDiscreteWithTheCommandThatReencodesThem() throws IOException {
        Preparation prepared = WebmRemuxer.prepare(clip("mpeg2-ac3.mkv"), SECOND);

        assertEquals(new Preparation.Discrete("track 1 is V_MPEG2 (MPEG-2 video), track 2 is A_AC3 (Dolby Digital"
            + " (AC-3)), which browsers do not play; to stream it: ffmpeg -i mpeg2-ac3.mkv -c:v libx264"
            + " -c:a aac mpeg2-ac3.mp4"), prepared);
    }

    @Test
    void theNotesCommandMakesAStreamableFile() throws IOException {
        Ffmpeg.assumeInstalled();
        Path source = Files.copy(clip("mpeg2-ac3.mkv"), dir.resolve("mpeg2-ac3.mkv"));
        String note = ((Preparation.Discrete) WebmRemuxer.prepare(source, SECOND)).note();
        String command = note.substring(note.indexOf("ffmpeg -i "));

        List<String> words = Arrays.stream(command.split(" ")).map(w -> w.endsWith(".mkv") || w.endsWith(".mp4")
            ? dir.resolve(w).toString() : w).toList();
        List<String> quiet = Stream.concat(Stream.of("ffmpeg", "-v", "error", "-nostdin"), words.stream().skip(1))
            .toList();
        Ffmpeg.Run run = Ffmpeg.run(quiet.toArray(String[]::new));

        assertEquals(0, run.exit(), run.err());
        Preparation converted = MediaIndexers.prepare(dir.resolve("mpeg2-ac3.mp4"), SECOND);
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class, converted).media()) {
            assertTrue(media.index().codecs().matches("avc1\\.\\w+, mp4a\\.40\\.2"), media.index().codecs());
        }
    }

    @Test
    void aCommandNamesTheFileAsOneShellWord() {
        assertEquals("ffmpeg -i 'my film'\\''s cut.mkv' -c copy 'my film'\\''s cut.mp4'",
            FfmpegCommands.convert(Path.of("/films/my film's cut.mkv"), "-c copy", "mp4"));
    }

    @Test
    void dropsSubtitlesAndKeepsAudioAndVideoAsTheyWere() throws IOException {
        Ffmpeg.assumeInstalled();
        Path subtitles = Files.writeString(dir.resolve("subs.srt"), "1\n00:00:01,000 --> 00:00:04,000\nA round\n\n"
            + "2\n00:00:12,000 --> 00:00:15,500\nAnother round\n", StandardCharsets.UTF_8);
        Path source = dir.resolve("with-subtitles.mkv");
        Ffmpeg.Run mux = Ffmpeg.run("ffmpeg", "-v", "error", "-nostdin", "-i", clip("vp9-opus-long-gop.mkv").toString(),
            "-i", subtitles.toString(), "-map", "0", "-map", "1", "-c", "copy", "-c:s", "srt", source.toString());
        assertEquals(0, mux.exit(), mux.err());

        try (StoredMedia media = continuous(source, SECOND)) {
            Path stored = stored(media);

            assertEquals("vp9, opus", media.index().codecs());
            MatroskaWalk.assertSameBlocks(source, stored);
            Map<Integer, List<String>> sourcePackets = Ffmpeg.packets(source);
            assertEquals(3, sourcePackets.size(), "video, audio and subtitles");
            sourcePackets.remove(2);
            Listings.assertSame(sourcePackets, Ffmpeg.packets(stored), "packet");
            Ffmpeg.assertDecodesSilently(stored);
        }
    }

    @Test
    void aTruncatedFileSaysWhereItEnds() throws IOException {
        byte[] whole = Files.readAllBytes(clip("vp9-opus-long-gop.mkv"));
        Path source = file("cut.mkv", Arrays.copyOf(whole, whole.length / 2));

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> WebmRemuxer.prepare(source, SECOND));
        assertTrue(e.getMessage().matches("truncated: the Cluster at byte \\d+ claims \\d+ bytes but the file ends at "
            + whole.length / 2), e.getMessage());
    }

    @Test
    void aFileCutInItsHeadersSaysSo() throws IOException {
        byte[] whole = Files.readAllBytes(clip("vp8-vorbis-long-gop.webm"));
        Path source = file("cut.webm", Arrays.copyOf(whole, 300));

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> WebmRemuxer.prepare(source, SECOND));
        assertTrue(e.getMessage().startsWith("truncated: ") && e.getMessage().contains("300"), e.getMessage());
    }

    @Test
    void aBlockRunningPastItsClusterIsCorrupt() throws IOException {
        Path source = file("synthetic.webm", new SyntheticWebm().clusters(2, 0, 1000, 25, 200).write().bytes());
        byte[] bytes = Files.readAllBytes(source);
        long block = firstBlockLongerThan(source, 150);
        assertEquals((byte) 0xA3, bytes[(int) block], "a SimpleBlock");
        assertEquals(0x40, bytes[(int) block + 1] & 0xC0, "with a 2-byte size");
        bytes[(int) block + 1] = 0x7F;
        bytes[(int) block + 2] = (byte) 0xF0;

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> WebmRemuxer.prepare(file("broken.webm", bytes), SECOND));
        assertTrue(e.getMessage().matches("corrupt: the SimpleBlock at byte " + block + " claims 16368 bytes, past the"
            + " end of the Cluster at byte \\d+ at byte \\d+"), e.getMessage());
    }

    private static long firstBlockLongerThan(Path file, long bytes) throws IOException {
        try (MediaFile in = MediaFile.open(file)) {
            BlockCursor block = MatroskaDemuxer.open(in).orElseThrow().blocks();
            while (block.next()) {
                if (block.elementEnd() - block.elementOffset() > bytes) {
                    return block.elementOffset();
                }
            }
        }
        throw new AssertionError("no block of more than " + bytes + " bytes in " + file);
    }

    @Test
    void aSourceThatChangedAfterPlanningIsNotWritten() throws IOException {
        Path source = Files.copy(clip("vp8-vorbis-long-gop.webm"), dir.resolve("changing.webm"));
        try (StoredMedia media = continuous(source, SECOND)) {
            byte[] bytes = Files.readAllBytes(source);
            Arrays.fill(bytes, bytes.length / 2, bytes.length, (byte) 0x42);
            Files.write(source, bytes);
            var out = Channels.newChannel(OutputStream.nullOutputStream());
            int last = media.index().fragments().size() - 2;

            IOException e = assertThrows(IOException.class, () -> media.writeFragment(last, out));
            assertTrue(e.getMessage().startsWith("the source no longer matches what was planned for fragment " + last),
                e.getMessage());
        }
    }

    @Test
    void theInitSegmentIsAWebmHeaderWithASegmentOfUnknownSize() throws IOException {
        try (StoredMedia media = continuous(clip("vp9-opus-long-gop.mkv"), SECOND);
             MediaFile in = MediaFile.open(stored(media))) {
            Ebml.Header segment = Ebml.header(in, Ebml.header(in, 0).end());

            assertEquals(Ebml.SEGMENT, segment.id());
            assertTrue(segment.unknownSize());
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            assertEquals("webm", demuxer.docType());
            assertEquals(media.index().durationNs(), demuxer.durationNs());
            assertEquals(Ebml.CLUSTER, Ebml.header(in, media.index().init().end()).id());
            ByteBuffer init = in.read(0, (int) media.index().init().length());
            String text = StandardCharsets.ISO_8859_1.decode(init).toString();
            assertTrue(text.contains("Rondo") && !text.contains("matroska"), "MuxingApp Rondo, DocType webm");
        }
    }
}

package io.rondo.content.media.matroska;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.matroska.MatroskaWalk.assertOneClusterPerRound;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.Ffmpeg;
import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.LiveHeader;
import io.rondo.content.media.Listings;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Live WebM as ffmpeg writes it to a pipe (a Segment and Clusters of unknown size, 25 frames a
 * second of VP8 with Opus), fed to the cutter in any chunking: the recording holds the source's
 * packets, one Cluster a round of 1 s, each round out as soon as the next one's opener is known.
 */
class LiveWebmCutterTest {

    private static final long MAX_JUMP_NS = 10 * SECOND;
    private static final long HOUR_TICKS = 3_600_000;

    @TempDir
    Path dir;

    /** What a publisher sent and what the cutter made of it. */
    private record Cut(LiveHeader header, List<LiveFragment> fragments, int fromFeeds, List<Long> fedWhenOut,
                       List<Long> chunkEnds, int discontinuities) {

        byte[] recording() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(header.init());
            fragments.forEach(f -> out.writeBytes(f.bytes()));
            return out.toByteArray();
        }

        MediaIndex index() {
            List<Fragment> index = new ArrayList<>();
            long offset = header.init().length;
            for (LiveFragment f : fragments) {
                index.add(Fragment.unplaced(f.startNs(), f.durationNs(), offset, f.bytes().length, f.keyframeNs(),
                    f.keyframeFirst()));
                offset += f.bytes().length;
            }
            LiveFragment last = fragments.get(fragments.size() - 1);
            return new MediaIndex(header.container(), header.mimeType(), header.codecs(),
                last.startNs() + last.durationNs(), new ByteRange(0, header.init().length), index);
        }
    }

    @ParameterizedTest(name = "GOP of {0} frames, chunks of up to {1} bytes, Clusters of unknown size: {2}")
    @CsvSource({"50, 40000, false", "250, 5000, true", "50, 300, true"})
    void cutsOneClusterPerRoundWithTheSourcesPackets(int gop, int maxChunk, boolean unknownClusters)
        throws IOException {
        Ffmpeg.assumeInstalled();
        byte[] live = liveWebm(gop, 12, true);
        if (unknownClusters) {
            live = unknownClusterSizes(live);
        }
        Cut cut = cut(live, new Random(gop * 31L + maxChunk), maxChunk);

        assertEquals(new LiveHeader("webm", "video/webm", "vp8, opus", cut.header().init()), cut.header());
        Path source = write("source.webm", live);
        Path recording = write("recording.webm", cut.recording());
        assertSamePackets(source, recording);
        Ffmpeg.assertDecodesSilently(recording);

        List<LiveFragment> fragments = cut.fragments();
        assertTrue(fragments.size() == 12 || fragments.size() == 13, "12 s in rounds of 1 s: " + fragments.size());
        for (int i = 0; i < fragments.size(); i++) {
            LiveFragment f = fragments.get(i);
            assertEquals(i, f.round(), "rounds follow each other");
            assertEquals(i * SECOND, f.startNs());
            if (i < fragments.size() - 1) {
                assertEquals(SECOND, f.durationNs(), "round " + i);
            }
            if (i < 12) {
                assertEquals(i % (gop / 25) == 0, f.keyframeNs() != Fragment.NO_KEYFRAME,
                    "a keyframe every " + gop / 25 + " s: round " + i);
            }
            assertEquals(f.keyframeNs() != Fragment.NO_KEYFRAME, f.keyframeFirst(),
                "a round holding a keyframe starts with it: round " + i);
        }
        assertTrue(cut.fromFeeds() < fragments.size(), "the last round comes from finish()");
        assertEquals(0, cut.discontinuities());
        assertOneClusterPerRound(recording, cut.index(), SECOND, 40 * MS);
        assertKeyframesWhereTheIndexSays(recording, cut.index());
        assertOutAsSoonAsDecided(source, cut);
    }

    @Test
    void cutsTheSameWhenFedOneByteAtATime() throws IOException {
        Ffmpeg.assumeInstalled();
        byte[] live = liveWebm(50, 3, true);
        Cut bytes = cut(live, new Random(1), 1);
        Cut chunks = cut(live, new Random(2), 8192);

        assertEquals(chunks.fragments().size(), bytes.fragments().size());
        for (int i = 0; i < bytes.fragments().size(); i++) {
            assertArrayEquals(chunks.fragments().get(i).bytes(), bytes.fragments().get(i).bytes(), "round " + i);
        }
        assertArrayEquals(chunks.header().init(), bytes.header().init());
        assertSamePackets(write("source.webm", live), write("recording.webm", bytes.recording()));
    }

    @Test
    void cutsElementsOfKnownSizeAsWell() throws IOException {
        Ffmpeg.assumeInstalled();
        byte[] file = liveWebm(50, 4, false);
        Cut cut = cut(file, new Random(3), 4096);

        Path recording = write("recording.webm", cut.recording());
        assertSamePackets(write("source.webm", file), recording);
        assertOneClusterPerRound(recording, cut.index(), SECOND, 40 * MS);
    }

    @Test
    void cutsAudioAloneAtEveryRound() throws IOException {
        Ffmpeg.assumeInstalled();
        byte[] live = unknownClusterSizes(ffmpeg(null, "-f", "lavfi", "-i", "sine", "-t", "5", "-c:a", "libopus"));
        Cut cut = cut(live, new Random(6), 3000);

        assertEquals(new LiveHeader("webm", "audio/webm", "opus", cut.header().init()), cut.header());
        Path source = write("source.webm", live);
        Path recording = write("recording.webm", cut.recording());
        assertSamePackets(source, recording);
        assertOneClusterPerRound(recording, cut.index(), SECOND, 40 * MS);
        for (LiveFragment f : cut.fragments()) {
            assertTrue(f.keyframeFirst() && f.keyframeNs() == f.startNs(), "audio starts anywhere: " + f.round());
        }
        assertOutAsSoonAsDecided(source, cut);
    }

    @ParameterizedTest(name = "Clusters from 6 s on moved by {0} ms")
    @ValueSource(longs = {HOUR_TICKS, -5000})
    void keepsTheTimelineMonotonicWhenTimestampsJump(long jumpTicks) throws IOException {
        Ffmpeg.assumeInstalled();
        byte[] live = unknownClusterSizes(liveWebm(50, 12, true));
        byte[] jumped = jumpClusters(live, 6 * SECOND, jumpTicks);
        Cut cut = cut(jumped, new Random(4), 20000);

        assertEquals(1, cut.discontinuities());
        List<LiveFragment> fragments = cut.fragments();
        for (int i = 0; i < fragments.size(); i++) {
            assertEquals(i, fragments.get(i).round(), "the timeline goes on from the round after the last");
        }
        assertTrue(fragments.size() <= 14, "no hour of nothing: " + fragments.size() + " rounds");
        Path recording = write("recording.webm", cut.recording());
        assertOneClusterPerRound(recording, cut.index(), SECOND, 40 * MS);
        Map<Integer, List<String>> source = Ffmpeg.packets(write("source.webm", live));
        Map<Integer, List<String>> recorded = Ffmpeg.packets(recording);
        Listings.assertSame(withoutPts(source), withoutPts(recorded), "packet");
        for (List<String> stream : recorded.values()) {
            long previous = Long.MIN_VALUE;
            for (String packet : stream) {
                long pts = Long.parseLong(packet.split(" ")[0]);
                assertTrue(pts > previous && pts < 14_000, "monotonic, within 14 s: " + stream);
                previous = pts;
            }
        }
    }

    @Test
    void refusesWhatIsNotWebmWithAClearError() throws IOException {
        LiveWebmCutter text = new LiveWebmCutter(SECOND, MAX_JUMP_NS);
        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> text.feed(ByteBuffer.wrap("GET / HTTP/1.1\r\n".getBytes())));
        assertTrue(e.getMessage().contains("not WebM or Matroska") && e.getMessage().contains("47 45 54 20"),
            e.getMessage());
        assertThrows(IllegalStateException.class, () -> text.feed(ByteBuffer.allocate(1)));

        Ffmpeg.assumeInstalled();
        byte[] live = unknownClusterSizes(liveWebm(50, 2, true));
        int cluster = firstCluster(live);
        byte[] broken = live.clone();
        broken[cluster + 12] = 0;
        LiveWebmCutter corrupt = new LiveWebmCutter(SECOND, MAX_JUMP_NS);
        e = assertThrows(MediaFormatException.class, () -> corrupt.feed(ByteBuffer.wrap(broken)));
        assertTrue(e.getMessage().contains("byte " + (cluster + 12)) && e.getMessage().contains("not EBML"),
            e.getMessage());

        ByteBuffer huge = ByteBuffer.allocate(cluster + 12 + 9);
        huge.put(live, 0, cluster + 12).put((byte) Ebml.SIMPLE_BLOCK).putLong(0x0100_0000_4000_0000L);
        LiveWebmCutter large = new LiveWebmCutter(SECOND, MAX_JUMP_NS);
        e = assertThrows(MediaFormatException.class, () -> large.feed(huge.flip()));
        assertTrue(e.getMessage().contains("SimpleBlock at byte " + (cluster + 12)) && e.getMessage().contains(
            "more than the " + LiveWebmCutter.MAX_ELEMENT_BYTES), e.getMessage());
    }

    @Test
    void givesTheFramesBeforeARoundsKeyframeToTheRoundBefore() throws IOException {
        SyntheticWebm.Written source = new SyntheticWebm().unknownSizes().cluster(0, 1500, 15, 100)
            .cluster(1500, 1500, 15, 100).cluster(3000, 1000, 10, 100).write();
        Path file = write("source.webm", source.bytes());
        Cut cut = cut(source.bytes(), new Random(8), 500);

        List<LiveFragment> fragments = cut.fragments();
        assertEquals(4, fragments.size());
        long videoBlockBytes = 2 + 4 + 100;
        assertEquals(WebmSegment.clusterBytes(0, 15 * videoBlockBytes), fragments.get(0).bytes().length,
            "round 0 holds the frames of 1.0 to 1.4 s, before round 1's keyframe");
        assertEquals(1500 * MS, fragments.get(1).keyframeNs());
        assertTrue(fragments.get(1).keyframeFirst() && fragments.get(3).keyframeFirst());
        assertEquals(Fragment.NO_KEYFRAME, fragments.get(2).keyframeNs());
        Path recording = write("recording.webm", cut.recording());
        MatroskaWalk.assertSameBlocks(file, recording);
        assertKeyframesWhereTheIndexSays(recording, cut.index());
        assertOutAsSoonAsDecided(file, cut);
    }

    @Test
    void writesAGapShorterThanAJumpAsRoundsOfNoBlockAndKeepsBlockGroups() throws IOException {
        SyntheticWebm.Written source = new SyntheticWebm().unknownSizes().withAudio().blockGroupsInLastCluster()
            .cluster(0, 1000, 25, 100).cluster(1000, 1000, 25, 100).cluster(4000, 1000, 25, 100).write();
        Cut cut = cut(source.bytes(), new Random(7), 700);

        assertEquals(0, cut.discontinuities(), "3 s of nothing is a gap, not a jump");
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), cut.fragments().stream().map(LiveFragment::round).toList());
        for (int round : new int[] {2, 3}) {
            byte[] empty = cut.fragments().get(round).bytes();
            assertEquals(WebmSegment.clusterBytes(round * 1000L, 0), empty.length, "round " + round + " is bare");
        }
        Path recording = write("recording.webm", cut.recording());
        MatroskaWalk.assertSameBlocks(write("source.webm", source.bytes()), recording);
        assertOneClusterPerRound(recording, cut.index(), SECOND, 0);
    }

    @Test
    void refusesToHoldMoreThanItsBoundWhenTimestampsStandStill() throws IOException {
        byte[] head = new SyntheticWebm().unknownSizes().cluster(0, 1000, 0, 0).write().bytes();
        byte[] frame = new byte[16 << 20];
        byte[] blockHeader = SyntheticWebm.cat(SyntheticWebm.id(Ebml.SIMPLE_BLOCK),
            SyntheticWebm.size(frame.length + 4L), new byte[] {(byte) 0x81, 0, 0, (byte) 0x80});
        LiveWebmCutter cutter = new LiveWebmCutter(SECOND, MAX_JUMP_NS);
        cutter.feed(ByteBuffer.wrap(head));
        MediaFormatException e = assertThrows(MediaFormatException.class, () -> {
            for (int i = 0; i < 10; i++) {
                assertEquals(List.of(), cutter.feed(ByteBuffer.wrap(blockHeader)));
                assertEquals(List.of(), cutter.feed(ByteBuffer.wrap(frame)));
            }
        });
        assertTrue(e.getMessage().contains("round 0 and the blocks after it reach")
            && e.getMessage().contains("more than the " + LiveRounds.MAX_HELD_BYTES), e.getMessage());
    }

    @Test
    void givesTheHeaderAndNoFragmentFromAHeaderAlone() throws IOException {
        Ffmpeg.assumeInstalled();
        byte[] live = liveWebm(50, 2, true);
        byte[] head = Arrays.copyOf(live, firstCluster(live));
        LiveWebmCutter cutter = new LiveWebmCutter(SECOND, MAX_JUMP_NS);
        assertNull(cutter.header());

        assertEquals(List.of(), cutter.feed(ByteBuffer.wrap(head)));
        assertNotNull(cutter.header());
        assertEquals("vp8, opus", cutter.header().codecs());
        assertEquals(List.of(), cutter.finish());
        assertArrayEquals(cut(live, new Random(5), 10000).header().init(), cutter.header().init(),
            "the header is known before any block");
    }

    /** Feeds {@code stream} in chunks of 1 to {@code maxChunk} bytes, noting when each fragment came out. */
    private static Cut cut(byte[] stream, Random random, int maxChunk) throws MediaFormatException {
        LiveWebmCutter cutter = new LiveWebmCutter(SECOND, MAX_JUMP_NS);
        List<LiveFragment> fragments = new ArrayList<>();
        List<Long> fedWhenOut = new ArrayList<>();
        List<Long> chunkEnds = new ArrayList<>();
        int at = 0;
        while (at < stream.length) {
            int n = Math.min(stream.length - at, 1 + random.nextInt(maxChunk));
            List<LiveFragment> out = cutter.feed(ByteBuffer.wrap(stream, at, n));
            at += n;
            chunkEnds.add((long) at);
            fragments.addAll(out);
            for (int i = 0; i < out.size(); i++) {
                fedWhenOut.add((long) at);
            }
        }
        int fromFeeds = fragments.size();
        fragments.addAll(cutter.finish());
        return new Cut(cutter.header(), fragments, fromFeeds, fedWhenOut, chunkEnds, cutter.discontinuities());
    }

    /**
     * Asserts that round k came out no sooner than a block of round k+1 had arrived, and no later
     * than the chunk that brought the block deciding where round k+1 opens: round k+1's first
     * keyframe where the round has one (its first block for audio alone), else the first block of
     * round k+2.
     */
    private static void assertOutAsSoonAsDecided(Path source, Cut cut) throws IOException {
        List<long[]> blocks = new ArrayList<>();
        try (MediaFile in = MediaFile.open(source)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            boolean video = demuxer.tracks().stream().anyMatch(MatroskaDemuxer.Track::isVideo);
            BlockCursor block = demuxer.blocks();
            long first = Long.MIN_VALUE;
            while (block.next()) {
                first = first == Long.MIN_VALUE ? block.timecode() : first;
                boolean opens = demuxer.track(block.track()).isVideo() ? block.keyframe() : !video;
                blocks.add(new long[] {demuxer.ns(block.timecode() - first, ""), block.elementEnd(), opens ? 1 : 0});
            }
        }
        for (int k = 0; k < cut.fromFeeds(); k++) {
            long roundEnd = (k + 1) * SECOND;
            long earliest = Long.MAX_VALUE;
            long decided = Long.MAX_VALUE;
            for (long[] b : blocks) {
                if (b[0] >= roundEnd) {
                    earliest = Math.min(earliest, b[1]);
                }
                if (b[2] == 1 && b[0] >= roundEnd || b[0] >= roundEnd + SECOND) {
                    decided = Math.min(decided, b[1]);
                }
            }
            long out = cut.fedWhenOut().get(k);
            long deadline = decided;
            long chunkEnd = cut.chunkEnds().stream().filter(e -> e >= deadline).findFirst().orElseThrow();
            assertTrue(out >= earliest && out <= chunkEnd, "round " + k + " out after " + out + " bytes, between "
                + earliest + " and " + chunkEnd);
        }
    }

    /** Asserts that each Cluster's first video frame is a keyframe where its fragment says so, and when. */
    private static void assertKeyframesWhereTheIndexSays(Path recording, MediaIndex index) throws IOException {
        try (MediaFile in = MediaFile.open(recording)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            BlockCursor block = demuxer.blocks();
            Map<Long, List<Boolean>> keys = new TreeMap<>();
            Map<Long, Long> firstKeyNs = new TreeMap<>();
            while (block.next()) {
                if (demuxer.track(block.track()).isVideo()) {
                    keys.computeIfAbsent(block.clusterOffset(), c -> new ArrayList<>()).add(block.keyframe());
                    if (block.keyframe()) {
                        firstKeyNs.putIfAbsent(block.clusterOffset(), demuxer.ns(block.timecode(), ""));
                    }
                }
            }
            for (Fragment f : index.fragments()) {
                assertEquals(f.keyframeFirst(), keys.getOrDefault(f.offset(), List.of(false)).get(0),
                    "the first frame at " + f.startNs());
                assertEquals(f.keyframeNs(), (long) firstKeyNs.getOrDefault(f.offset(), Fragment.NO_KEYFRAME));
            }
        }
    }

    private static void assertSamePackets(Path source, Path recording) throws IOException {
        long shift;
        try (MediaFile in = MediaFile.open(source)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            assertEquals(MS, demuxer.timecodeScale(), "ffprobe's time base is the TimecodeScale");
            BlockCursor block = demuxer.blocks();
            assertTrue(block.next());
            shift = block.timecode();
        }
        Map<Integer, List<String>> expected = new TreeMap<>();
        Ffmpeg.packets(source).forEach((stream, packets) -> expected.put(stream, packets.stream().map(p -> {
            String[] fields = p.split(" ", 2);
            return (Long.parseLong(fields[0]) - shift) + " " + fields[1];
        }).toList()));
        Listings.assertSame(expected, Ffmpeg.packets(recording), "packet");
    }

    private static Map<Integer, List<String>> withoutPts(Map<Integer, List<String>> packets) {
        Map<Integer, List<String>> out = new TreeMap<>();
        packets.forEach((stream, list) -> out.put(stream, list.stream().map(p -> p.split(" ", 2)[1]).toList()));
        return out;
    }

    /**
     * {@code live} with the Timecode of every Cluster from {@code fromNs} on moved {@code ticks}
     * later, as an encoder whose clock jumps; its Clusters are of unknown size, so no other size changes.
     */
    private byte[] jumpClusters(byte[] live, long fromNs, long ticks) throws IOException {
        Path source = write("unjumped.webm", live);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int copied = 0;
        int jumped = 0;
        try (MediaFile in = MediaFile.open(source)) {
            MatroskaDemuxer demuxer = MatroskaDemuxer.open(in).orElseThrow();
            BlockCursor block = demuxer.blocks();
            long last = -1;
            while (block.next()) {
                if (block.clusterOffset() == last || demuxer.ns(block.clusterTimecode(), "") < fromNs) {
                    continue;
                }
                last = block.clusterOffset();
                Ebml.Header cluster = Ebml.header(in, last);
                assertTrue(cluster.unknownSize(), "a Cluster of unknown size");
                Ebml.Header timecode = Ebml.header(in, cluster.dataOffset());
                assertEquals(Ebml.TIMECODE, timecode.id());
                out.write(live, copied, (int) (timecode.offset() - copied));
                out.writeBytes(EbmlWriter.uint(Ebml.TIMECODE, block.clusterTimecode() + ticks));
                copied = (int) timecode.end();
                jumped++;
            }
        }
        assertTrue(jumped >= 2, "Clusters jumped: " + jumped);
        out.write(live, copied, live.length - copied);
        return out.toByteArray();
    }

    /**
     * {@code live} with every Cluster of unknown size, as Chromium's MediaRecorder writes them
     * (ffmpeg knows each Cluster's size before it writes it).
     */
    private byte[] unknownClusterSizes(byte[] live) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MediaFile in = MediaFile.open(write("known.webm", live))) {
            Ebml.Header segment = Ebml.header(in, Ebml.header(in, 0).end());
            assertEquals(Ebml.SEGMENT, segment.id());
            out.write(live, 0, (int) segment.dataOffset());
            long pos = segment.dataOffset();
            while (pos < live.length) {
                Ebml.Header h = Ebml.header(in, pos);
                if (h.id() == Ebml.CLUSTER) {
                    out.writeBytes(EbmlWriter.unknownSizeHeader(Ebml.CLUSTER));
                    out.write(live, (int) h.dataOffset(), (int) h.size());
                } else {
                    out.write(live, (int) pos, (int) (h.end() - pos));
                }
                pos = h.end();
            }
        }
        return out.toByteArray();
    }

    private static int firstCluster(byte[] live) {
        for (int i = 0; i + 4 <= live.length; i++) {
            if (ByteBuffer.wrap(live, i, 4).getInt() == Ebml.CLUSTER) {
                return i;
            }
        }
        throw new AssertionError("no Cluster");
    }

    /**
     * {@code seconds} of ffmpeg's test picture and tone as live WebM: VP8 with a keyframe every
     * {@code gop} frames and Opus, written to a pipe ({@code live}: sizes unknown) or to a file.
     */
    private byte[] liveWebm(int gop, int seconds, boolean live) throws IOException {
        return ffmpeg(live ? null : dir.resolve("ffmpeg.webm"), "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
            "-f", "lavfi", "-i", "sine", "-t", Integer.toString(seconds), "-c:v", "libvpx", "-g", Integer.toString(gop),
            "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus");
    }

    /** What ffmpeg writes as WebM with {@code options}: to a pipe where {@code file} is null, else to that file. */
    private byte[] ffmpeg(Path file, String... options) throws IOException {
        Path log = dir.resolve("ffmpeg.log");
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-v", "error", "-nostdin", "-y"));
        command.addAll(List.of(options));
        command.addAll(List.of("-f", "webm", file == null ? "-" : file.toString()));
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        try {
            assertEquals(0, p.waitFor(), "ffmpeg: " + Files.readString(log));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return file == null ? out : Files.readAllBytes(file);
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }
}

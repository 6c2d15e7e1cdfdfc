package io.rondo.content.media.isobmff;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.LiveCutter;
import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.LiveHeader;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.remux.LiveCutters;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What ffmpeg sends live ({@code -f mp4 -movflags +frag_keyframe+empty_moov+default_base_moof -}),
 * fed to the cutter in chunks split anywhere, comes out as one fragment a round that ffprobe reads
 * as the same packets, cut as ingest cuts a stored file.
 */
class LiveMp4CutterTest {

    private static final long MAX_JUMP_NS = 10 * SECOND;
    private static final long HOUR_S = 3600;

    @TempDir
    Path dir;

    /** What a publisher's bytes became: the header and the fragments, those {@code finish} gave apart. */
    record Cut(LiveHeader header, List<LiveFragment> fed, List<LiveFragment> finished, int discontinuities,
               int[] outBy) {

        List<LiveFragment> all() {
            List<LiveFragment> all = new ArrayList<>(fed);
            all.addAll(finished);
            return all;
        }
    }

    @ParameterizedTest(name = "GOP of {0} frames, {1}")
    @CsvSource({"50, +frag_keyframe+empty_moov+default_base_moof", "250, +frag_keyframe+empty_moov+default_base_moof",
        "50, +frag_keyframe+empty_moov+default_base_moof+delay_moov",
        "50, +frag_keyframe+empty_moov+default_base_moof+separate_moof", "50, +frag_keyframe+empty_moov"})
    void aLiveMp4BecomesOneFragmentARoundOfTheSamePackets(int gop, String movflags) throws Exception {
        Path source = live("source.mp4", gop, 12, movflags);
        byte[] bytes = Files.readAllBytes(source);

        Cut cut = cut(bytes, new Random(23 + gop), 64 << 10);
        Path stored = write("cut.mp4", cut);

        assertEquals("mp4", cut.header().container());
        assertEquals("video/mp4", cut.header().mimeType());
        assertTrue(cut.header().codecs().matches("avc1\\.[0-9A-F]{6}, mp4a\\.40\\.2"), cut.header().codecs());
        assertEquals(0, cut.discontinuities());
        assertSamePackets(source, stored, movflags.contains("delay_moov"));
        assertRounds(cut, 12 * SECOND);
        assertOneRoundEach(cut, stored);
        assertAtMostTwoRoundsLate(source, cut);
        if (!movflags.contains("delay_moov")) {
            assertCutAsIngestCuts(source, cut, stored);
        }
    }

    @Test
    void oneByteAtATimeCutsTheSame() throws Exception {
        Path source = live("short.mp4", 50, 3, "+frag_keyframe+empty_moov+default_base_moof");
        byte[] bytes = Files.readAllBytes(source);

        Cut cut = cut(bytes, new Random(1), 1);
        Path stored = write("cut.mp4", cut);

        assertSamePackets(source, stored, false);
        assertRounds(cut, 3 * SECOND);
        assertOneRoundEach(cut, stored);
    }

    @Test
    void anHourJumpIsOneDiscontinuityOnAMonotonicTimeline() throws Exception {
        Path source = live("source.mp4", 50, 12, "+frag_keyframe+empty_moov+default_base_moof");
        byte[] jumped = jumpAnHour(Files.readAllBytes(source), 3, source);
        Path jumpedSource = Files.write(dir.resolve("jumped.mp4"), jumped);

        Cut cut = cut(jumped, new Random(7), 16 << 10);
        Path stored = write("cut.mp4", cut);

        assertEquals(1, cut.discontinuities());
        List<LiveFragment> all = cut.all();
        for (int k = 0; k < all.size(); k++) {
            assertEquals(k, all.get(k).round(), "round after round, no gap: " + all.get(k));
        }
        LiveFragment last = all.get(all.size() - 1);
        long endNs = last.startNs() + last.durationNs();
        assertTrue(endNs >= 12 * SECOND && endNs <= 14 * SECOND, "12 s of media, a round or two lost to the jump, "
            + "not an hour: " + Ticks.seconds(endNs));
        List<List<String>> packets = FfmpegRuns.packets(stored);
        List<List<String>> sourcePackets = FfmpegRuns.packets(jumpedSource);
        for (int s = 0; s < packets.size(); s++) {
            long previous = Long.MIN_VALUE;
            for (String p : packets.get(s)) {
                long dts = Long.parseLong(p.split(",")[1]);
                assertTrue(dts > previous, "stream " + s + " decodes in order: " + p);
                previous = dts;
            }
            assertEquals(payloads(sourcePackets.get(s)), payloads(packets.get(s)), "stream " + s + ": every packet");
        }
    }

    @Test
    void aPublisherThatRestartsItsMuxerGoesOnAfterTheRoundsItSent() throws Exception {
        Path source = live("source.mp4", 50, 4, "+frag_keyframe+empty_moov+default_base_moof");
        byte[] once = Files.readAllBytes(source);
        byte[] twice = Arrays.copyOf(once, 2 * once.length);
        System.arraycopy(once, 0, twice, once.length, once.length);

        Cut cut = cut(twice, new Random(3), 32 << 10);
        Path stored = write("cut.mp4", cut);

        assertEquals(1, cut.discontinuities(), "the second run starts at 0 again");
        List<LiveFragment> all = cut.all();
        for (int k = 0; k < all.size(); k++) {
            assertEquals(k, all.get(k).round(), "round after round, no gap: " + all.get(k));
        }
        LiveFragment last = all.get(all.size() - 1);
        long endNs = last.startNs() + last.durationNs();
        assertTrue(endNs >= 8 * SECOND && endNs <= 10 * SECOND, "twice 4 s: " + Ticks.seconds(endNs));
        List<List<String>> packets = FfmpegRuns.packets(stored);
        List<List<String>> sourcePackets = FfmpegRuns.packets(source);
        for (int s = 0; s < packets.size(); s++) {
            List<String> expected = new ArrayList<>(payloads(sourcePackets.get(s)));
            expected.addAll(payloads(sourcePackets.get(s)));
            assertEquals(expected, payloads(packets.get(s)), "stream " + s + ": every packet of both runs");
        }
    }

    @Test
    void aTrackThatStopsFailsTheRecordingOnceTheOthersRunFarAhead() throws Exception {
        Path out = dir.resolve("silent.mp4");
        FfmpegRuns.Run run = FfmpegRuns.run(FfmpegRuns.require("ffmpeg").toString(), "-v", "error", "-nostdin",
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=duration=2", "-t", "12",
            "-c:v", "libx264", "-g", "50", "-c:a", "aac", "-f", "mp4", "-movflags",
            "+frag_keyframe+empty_moov+default_base_moof", out.toString());
        assertEquals(0, run.exit(), run.err());

        MediaFormatException e = assertThrows(MediaFormatException.class,
            () -> cut(Files.readAllBytes(out), new Random(4), 64 << 10));

        assertTrue(e.getMessage().matches("unsupported: track 2 has sent nothing after 2\\.\\d+ s while track 1 reached"
            + " .* s: every track must go on for its rounds to be cut"), e.getMessage());
    }

    @Test
    void garbageFailsSayingItIsNotAnMp4() {
        byte[] garbage = new byte[4096];
        new Random(5).nextBytes(garbage);
        LiveCutter cutter = new LiveMp4Cutter(SECOND, MAX_JUMP_NS);

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> cutter.feed(ByteBuffer.wrap(garbage)));

        assertTrue(e.getMessage().contains("not an MP4 box"), e.getMessage());
        MediaFormatException again = assertThrows(MediaFormatException.class,
            () -> cutter.feed(ByteBuffer.wrap(new byte[] {0, 0, 0, 8})));
        assertEquals(e.getMessage(), again.getMessage(), "a failed cutter stays failed");
    }

    @Test
    void garbageAfterTheHeaderFails() throws Exception {
        byte[] bytes = Files.readAllBytes(live("source.mp4", 50, 2, "+frag_keyframe+empty_moov+default_base_moof"));
        int headerEnd = headerLength(bytes);
        byte[] broken = bytes.clone();
        Random random = new Random(9);
        for (int i = headerEnd; i < headerEnd + 16; i++) {
            broken[i] = (byte) random.nextInt(256);
        }
        broken[headerEnd + 4] = 1;
        LiveCutter cutter = new LiveMp4Cutter(SECOND, MAX_JUMP_NS);

        MediaFormatException e = assertThrows(MediaFormatException.class, () -> cutter.feed(ByteBuffer.wrap(broken)));

        assertTrue(e.getMessage().contains("the bytes at " + headerEnd + " are not an MP4 box"), e.getMessage());
        assertNotNull(cutter.header(), "the header before it stands");
    }

    @Test
    void theHeaderAloneGivesAHeaderAndNoFragment() throws Exception {
        byte[] bytes = Files.readAllBytes(live("source.mp4", 50, 2, "+frag_keyframe+empty_moov+default_base_moof"));
        byte[] header = Arrays.copyOf(bytes, headerLength(bytes));
        LiveCutter cutter = LiveCutters.of("MP4", SECOND);

        assertEquals(List.of(), cutter.feed(ByteBuffer.wrap(header)));

        assertNotNull(cutter.header());
        assertEquals(ByteBuffer.wrap(header), ByteBuffer.wrap(cutter.header().init()), "the source's ftyp and moov");
        assertEquals(List.of(), cutter.finish());
        assertInstanceOf(LiveMp4Cutter.class, cutter);
        assertThrows(IllegalArgumentException.class, () -> LiveCutters.of("flv", SECOND));
    }

    private Path live(String name, int gop, int seconds, String movflags) throws Exception {
        Path out = dir.resolve(name);
        FfmpegRuns.Run run = FfmpegRuns.run(FfmpegRuns.require("ffmpeg").toString(), "-v", "error", "-nostdin",
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine", "-t",
            Integer.toString(seconds), "-c:v", "libx264", "-g", Integer.toString(gop), "-c:a", "aac", "-f", "mp4",
            "-movflags", movflags, out.toString());
        assertEquals(0, run.exit(), run.err());
        return out;
    }

    private static Cut cut(byte[] bytes, Random random, int largestChunk) throws IOException {
        LiveMp4Cutter cutter = new LiveMp4Cutter(SECOND, MAX_JUMP_NS);
        List<LiveFragment> fed = new ArrayList<>();
        int[] outBy = new int[bytes.length + 1];
        int at = 0;
        while (at < bytes.length) {
            int n = Math.min(bytes.length - at, 1 + random.nextInt(largestChunk));
            fed.addAll(cutter.feed(ByteBuffer.wrap(bytes, at, n).slice()));
            at += n;
            Arrays.fill(outBy, at - n + 1, at + 1, fed.size());
        }
        LiveHeader header = cutter.header();
        return new Cut(header, fed, cutter.finish(), cutter.discontinuities(), outBy);
    }

    private Path write(String name, Cut cut) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(cut.header().init());
        cut.all().forEach(f -> out.writeBytes(f.bytes()));
        return Files.write(dir.resolve(name), out.toByteArray());
    }

    /**
     * ffprobe reads the same packets from both, stream by stream: bytes, flags, and times, the same
     * or (where the source starts before 0, its priming) moved by one offset per stream.
     */
    private static void assertSamePackets(Path source, Path stored, boolean shifted) throws Exception {
        List<List<String>> expected = FfmpegRuns.packets(source);
        List<List<String>> actual = FfmpegRuns.packets(stored);
        assertEquals(expected.size(), actual.size());
        for (int s = 0; s < expected.size(); s++) {
            assertEquals(payloads(expected.get(s)), payloads(actual.get(s)), "stream " + s + ": every packet");
            long shift = pts(actual.get(s).get(0)) - pts(expected.get(s).get(0));
            if (!shifted) {
                assertEquals(expected.get(s), actual.get(s), "stream " + s + ": the same times");
            }
            for (int i = 0; i < expected.get(s).size(); i++) {
                long d = pts(actual.get(s).get(i)) - pts(expected.get(s).get(i));
                assertTrue(Math.abs(d - shift) <= 1, "stream " + s + " packet " + i + " moved by " + d + ", not "
                    + shift);
            }
        }
    }

    private static List<String> payloads(List<String> packets) {
        return packets.stream().map(p -> p.substring(p.indexOf(',', p.indexOf(',') + 1) + 1)).toList();
    }

    private static long pts(String packet) {
        return Long.parseLong(packet.substring(0, packet.indexOf(',')));
    }

    /** Rounds 0, 1, ... each starting at k s and lasting 1 s, the last from finish only, to the media's end. */
    private static void assertRounds(Cut cut, long mediaNs) {
        List<LiveFragment> all = cut.all();
        assertTrue(!cut.finished().isEmpty(), "the last round comes at finish");
        for (int k = 0; k < all.size(); k++) {
            LiveFragment f = all.get(k);
            assertEquals(k, f.round());
            assertEquals(k * SECOND, f.startNs());
            if (k < all.size() - 1) {
                assertEquals(SECOND, f.durationNs());
            }
        }
        LiveFragment last = all.get(all.size() - 1);
        long endNs = last.startNs() + last.durationNs();
        assertTrue(Math.abs(endNs - mediaNs) < 150 * MS, "ends at " + Ticks.seconds(endNs));
    }

    /**
     * Each fragment holds samples presented in its round (video give or take the frames the keyframe
     * rule moves), starts with its keyframe where it has one, and says so.
     */
    private static void assertOneRoundEach(Cut cut, Path stored) throws IOException {
        List<LiveFragment> all = cut.all();
        long[] ends = ends(cut);
        for (SampleTrack s : RemuxChecks.tracks(stored)) {
            long ts = s.header().timescale();
            int k = 0;
            boolean first = true;
            for (int i = 0; i < s.count(); i++) {
                while (s.offset(i) >= ends[k]) {
                    k++;
                    first = true;
                }
                LiveFragment f = all.get(k);
                long presentationNs = Ticks.toNs(s.decodeTime(i) + s.compositionOffset(i) - s.header().editShift(),
                    ts, "test");
                long slackNs = s.video() ? 200 * MS : 0;
                String sample = "track " + s.header().trackId() + " sample " + i + " at "
                    + Ticks.seconds(presentationNs) + " in round " + k;
                assertTrue(presentationNs >= f.startNs() - slackNs || k == 0, sample);
                assertTrue(presentationNs < f.startNs() + SECOND + slackNs || k == all.size() - 1, sample);
                if (s.video() && first) {
                    boolean hasKeyframe = false;
                    long keyframeNs = Fragment.NO_KEYFRAME;
                    for (int j = i; j < s.count() && s.offset(j) < ends[k]; j++) {
                        if (s.sync(j) && !hasKeyframe) {
                            hasKeyframe = true;
                            keyframeNs = Math.max(0, Ticks.toNs(s.decodeTime(j) + s.compositionOffset(j)
                                - s.header().editShift(), ts, "test"));
                        }
                    }
                    assertEquals(hasKeyframe, s.sync(i), sample + ": a round with a keyframe starts with it");
                    assertEquals(s.sync(i), f.keyframeFirst(), sample);
                    assertEquals(keyframeNs, f.keyframeNs(), sample);
                }
                first = false;
            }
        }
    }

    /**
     * Once the bytes of a source fragment arrived, every round but the last two it reaches into has
     * come out: a live viewer waits for the source's fragment and two rounds, no longer.
     */
    private static void assertAtMostTwoRoundsLate(Path source, Cut cut) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(source));
        List<SampleTrack> tracks = RemuxChecks.tracks(source);
        for (int at = 0; at < b.limit(); at += b.getInt(at)) {
            if (!type(b, at).equals("mdat")) {
                continue;
            }
            long end = at + b.getInt(at);
            long reachedNs = Long.MAX_VALUE;
            for (SampleTrack s : tracks) {
                long trackNs = 0;
                for (int i = 0; i < s.count() && s.offset(i) < end; i++) {
                    trackNs = Ticks.toNs(s.decodeTime(i) + s.duration(i), s.header().timescale(), "test");
                }
                reachedNs = Math.min(reachedNs, trackNs);
            }
            assertTrue(cut.outBy()[(int) end] >= reachedNs / SECOND - 2, "by byte " + end + ", with every track"
                + " sent up to " + Ticks.seconds(reachedNs) + ", " + cut.outBy()[(int) end] + " rounds came out");
        }
    }

    /** Where each fragment ends in the stored file. */
    private static long[] ends(Cut cut) {
        List<LiveFragment> all = cut.all();
        long[] ends = new long[all.size()];
        long end = cut.header().init().length;
        for (int k = 0; k < all.size(); k++) {
            end += all.get(k).bytes().length;
            ends[k] = end;
        }
        return ends;
    }

    /** Ingest, storing the same bytes as a file, puts the same samples in each round. */
    private void assertCutAsIngestCuts(Path source, Cut cut, Path stored) throws IOException {
        Path ingested = dir.resolve("ingested.mp4");
        MediaIndex index = RemuxChecks.store(source, SECOND, ingested);
        long[] ingestEnds = index.fragments().stream().mapToLong(f -> f.offset() + f.length()).toArray();
        assertEquals(index.fragments().size(), cut.all().size(), "as many rounds");
        assertEquals(countsPerRound(ingested, ingestEnds), countsPerRound(stored, ends(cut)));
        for (int k = 0; k < index.fragments().size(); k++) {
            assertEquals(index.fragments().get(k).keyframeNs(), cut.all().get(k).keyframeNs(), "round " + k);
        }
    }

    private static List<List<Integer>> countsPerRound(Path file, long[] ends) throws IOException {
        List<List<Integer>> counts = new ArrayList<>();
        for (SampleTrack s : RemuxChecks.tracks(file)) {
            Integer[] perRound = new Integer[ends.length];
            Arrays.fill(perRound, 0);
            int k = 0;
            for (int i = 0; i < s.count(); i++) {
                while (s.offset(i) >= ends[k]) {
                    k++;
                }
                perRound[k]++;
            }
            counts.add(List.of(perRound));
        }
        return counts;
    }

    /** The ftyp and moov: where the first moof starts. */
    private static int headerLength(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int at = 0;
        while (!type(b, at).equals("moof")) {
            at += b.getInt(at);
        }
        return at;
    }

    /** The source with every tfdt from its {@code from}th moof on an hour later. */
    private static byte[] jumpAnHour(byte[] bytes, int from, Path source) throws IOException {
        Map<Long, Long> timescales = new HashMap<>();
        for (SampleTrack s : RemuxChecks.tracks(source)) {
            timescales.put(s.header().trackId(), s.header().timescale());
        }
        ByteBuffer b = ByteBuffer.wrap(bytes.clone());
        int moofs = 0;
        for (int at = 0; at < bytes.length; at += b.getInt(at)) {
            if (type(b, at).equals("moof") && moofs++ >= from) {
                for (int traf = at + 8; traf < at + b.getInt(at); traf += b.getInt(traf)) {
                    if (type(b, traf).equals("traf")) {
                        int tfhd = traf + 8;
                        int tfdt = tfhd + b.getInt(tfhd);
                        assertEquals("tfdt", type(b, tfdt));
                        assertEquals(1, b.get(tfdt + 8), "a 64-bit tfdt");
                        long trackId = b.getInt(tfhd + 12) & 0xFFFF_FFFFL;
                        b.putLong(tfdt + 12, b.getLong(tfdt + 12) + HOUR_S * timescales.get(trackId));
                    }
                }
            }
        }
        return b.array();
    }

    private static String type(ByteBuffer b, int at) {
        byte[] t = new byte[4];
        b.get(at + 4, t);
        return new String(t, StandardCharsets.US_ASCII);
    }
}

package io.rondo.systemtest;

import io.rondo.client.StreamClient;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.rondo.systemtest.MediaTools.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Media as people have it, made by ffmpeg with its defaults: libx264's keyframe every 250 frames
 * (10 s at 25 fps), as a plain progressive MP4 and as a fragmented one. Each is ingested as a
 * continuous object of one-second fragments, streams one fragment per round whatever its GOP,
 * decodes without an error, carries the source's samples untouched, and a stream opened in the
 * middle of a GOP starts at the keyframe before it; so does one of H.264 and VP9 with keyframes in
 * the middle of rounds, its first frame that keyframe.
 *
 * <p>Needs ffmpeg; skipped, saying so, where it is missing, unless {@code rondo.ffmpeg.required}
 * is set (as CI sets it).
 */
class RealMediaTest {

    private static final long SECOND = 1_000_000_000L;
    private static final int CLIP_SECONDS = 20;

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;
    private static Path plain;
    private static Path fragmented;
    private static Path midRoundKeyframes;

    @BeforeAll
    static void makeClipsAndServe() throws Exception {
        boolean present = RondoUnderTest.onPath("ffmpeg").isPresent() && RondoUnderTest.onPath("ffprobe").isPresent();
        if (Boolean.getBoolean("rondo.ffmpeg.required") && !present) {
            fail("ffmpeg and ffprobe are required (rondo.ffmpeg.required) but not installed");
        }
        assumeTrue(present, "ffmpeg is not installed: install ffmpeg to test real media");
        String[] sources = {"-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=" + CLIP_SECONDS,
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=" + CLIP_SECONDS};
        plain = temp.resolve("plain.mp4");
        run(concat(new String[] {"ffmpeg", "-nostdin", "-v", "error", "-y"}, sources,
            new String[] {"-c:v", "libx264", "-c:a", "aac", plain.toString()}));
        fragmented = temp.resolve("fragmented.mp4");
        run(concat(new String[] {"ffmpeg", "-nostdin", "-v", "error", "-y"}, sources,
            new String[] {"-c:v", "libx264", "-c:a", "aac", "-movflags",
                "+frag_keyframe+empty_moov+default_base_moof", fragmented.toString()}));
        // a keyframe every 50 frames at 30 fps: at 0, 1.667, 3.333, 5 s ..., most in the middle of a round
        String[] midRound = {"-f", "lavfi", "-i", "testsrc=size=160x120:rate=30:duration=13", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=13", "-g", "50"};
        midRoundKeyframes = temp.resolve("gop50.mp4");
        run(concat(new String[] {"ffmpeg", "-nostdin", "-v", "error", "-y"}, midRound,
            new String[] {"-c:v", "libx264", "-c:a", "aac", midRoundKeyframes.toString()}));
        Path vp9 = temp.resolve("gop50.webm");
        run(concat(new String[] {"ffmpeg", "-nostdin", "-v", "error", "-y"}, midRound,
            new String[] {"-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus",
                vp9.toString()}));
        rondo = RondoUnderTest.start(temp.resolve("rondo"), 1000);
        ingest(plain, "/plain.mp4");
        ingest(fragmented, "/fragmented.mp4");
        ingest(midRoundKeyframes, "/gop50.mp4");
        ingest(vp9, "/gop50.webm");
    }

    @AfterAll
    static void stop() {
        if (rondo != null) {
            rondo.close();
        }
    }

    private static MediaObject ingest(Path file, String name) throws Exception {
        return rondo.library.ingest().ingest(new IngestRequest(file, name, null, 0), c -> { });
    }

    private static MediaObject object(String name) {
        return rondo.library.store().catalog().byName(name).orElseThrow();
    }

    @Test
    void aPlainMp4IsContinuousWithOneFragmentPerRoundAndKeyframesEveryTenSeconds() {
        for (String name : List.of("/plain.mp4", "/fragmented.mp4")) {
            MediaObject clip = object(name);
            assertEquals(Kind.CONTINUOUS, clip.kind(), name);
            List<Fragment> fragments = clip.media().fragments();
            long durationNs = clip.media().durationNs();
            assertEquals(CLIP_SECONDS * SECOND, durationNs, 100_000_000, name + ": as long as the source");
            assertEquals((durationNs + SECOND - 1) / SECOND, fragments.size(), name + ": a fragment a round");
            for (int i = 0; i < fragments.size(); i++) {
                Fragment fragment = fragments.get(i);
                assertEquals(i * SECOND, fragment.startNs(), name + " fragment " + i);
                long roundNs = Math.min(SECOND, durationNs - i * SECOND);
                assertEquals(roundNs, fragment.durationNs(), 50_000_000, name + " fragment " + i + " lasts its round");
                assertEquals(i % 10 == 0 && i < CLIP_SECONDS, fragment.keyframeFirst(),
                    name + " fragment " + i + " starts at a keyframe");
            }
        }
    }

    @Test
    void aLongGopClipStreamsOneFragmentPerRoundAndDecodesWithTheSourcesPackets() throws Exception {
        List<Data> received = new ArrayList<>();
        byte[] played = play("/plain.mp4", 0, received);

        assertEquals(CLIP_SECONDS, received.size(), "every fragment once");
        long spanNs = received.get(received.size() - 1).deadlineNs() - received.get(0).deadlineNs();
        assertEquals((CLIP_SECONDS - 1) * SECOND, spanNs, 2 * SECOND,
            "the stream's deadlines advance one round per fragment: 20 s of media over 20 rounds, not 2");
        Path out = Files.write(temp.resolve("played.mp4"), played);
        assertEquals("", run("ffmpeg", "-nostdin", "-v", "error", "-i", out.toString(), "-f", "null", "-"),
            "ffmpeg decodes the stream without an error");
        assertEquals(CLIP_SECONDS, Double.parseDouble(run("ffprobe", "-v", "error", "-show_entries",
            "format=duration", "-of", "csv=p=0", out.toString()).strip()), 0.1);
        for (String stream : List.of("v", "a")) {
            assertEquals(packets(plain, stream), packets(out, stream),
                "the " + stream + " packets are the source's, byte for byte, in the same order");
        }
        assertEquals(keyframeTimes(plain), keyframeTimes(out), "the video's keyframes play when they did");
    }

    @Test
    void aStartInTheMiddleOfAGopBeginsAtTheKeyframeBeforeIt() throws Exception {
        List<Data> received = new ArrayList<>();
        play("/fragmented.mp4", 14 * SECOND + 300_000_000L, received);

        assertEquals(10, received.get(0).fragmentIndex(), "the first DATA holds the keyframe at 10 s");
        for (int i = 0; i < received.size(); i++) {
            assertEquals(10 + i, received.get(i).fragmentIndex(), "then every fragment in order");
        }
        long firstDeadline = received.get(0).deadlineNs();
        for (int i = 1; i <= 4; i++) {
            assertEquals(firstDeadline, received.get(i).deadlineNs(),
                "fragments 10 to 14, up to the position, are all due with the first");
        }
        assertTrue(received.get(6).deadlineNs() - firstDeadline >= SECOND,
            "after the position, one fragment a round");
    }

    @Test
    void aStreamOpenedBetweenKeyframesDeliversTheKeyframeBeforeThePositionFirst() throws Exception {
        for (String name : List.of("/gop50.mp4", "/gop50.webm")) {
            for (long startNs : new long[] {8_333_333_333L, 10 * SECOND, 11_500_000_000L}) {
                byte[] played = play(name, startNs, new ArrayList<>());
                Path out = Files.write(temp.resolve("from-" + startNs + name.replace('/', '-')), played);

                assertEquals("", run("ffmpeg", "-nostdin", "-v", "error", "-i", out.toString(), "-f", "null", "-"),
                    name + " from " + startNs + " ns decodes without an error (no missing reference frame)");
                String first = run("ffprobe", "-v", "error", "-select_streams", "v", "-show_entries",
                    "packet=pts_time,flags", "-of", "csv=p=0", out.toString()).lines().findFirst().orElseThrow();
                assertTrue(first.endsWith(",K_"), name + " from " + startNs + " ns: its first frame is a keyframe, "
                    + first);
                double at = Double.parseDouble(first.substring(0, first.indexOf(',')));
                assertTrue(at <= startNs / 1e9 && at > startNs / 1e9 - 50 / 30.0, name + " from " + startNs
                    + " ns starts at the keyframe at or before it, not at " + at + " s");
            }
        }
    }

    private static byte[] play(String name, long startNs, List<Data> received) throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", rondo.streamPort())) {
            Accept accept = client.open(name.substring(1), startNs, RondoUnderTest.PROFILE);
            assertEquals(SECOND, accept.fragmentDurationNs(), "ACCEPT's fragment duration is the round");
            ByteArrayOutputStream media = new ByteArrayOutputStream();
            append(media, accept.initSegment());
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                received.add(new Data(data.sequence(), data.fragmentIndex(), data.presentationNs(), data.deadlineNs(),
                    data.discontinuity(), ByteBuffer.allocate(0)));
                append(media, data.payload());
            }
            return media.toByteArray();
        }
    }

    /** Each packet of one stream as ffprobe sees it: its size and the MD5 of its bytes. */
    private static List<String> packets(Path media, String stream) throws Exception {
        return run("ffprobe", "-v", "error", "-select_streams", stream, "-show_packets", "-show_data_hash", "MD5",
            "-show_entries", "packet=size,data_hash", media.toString()).lines()
            .filter(line -> line.startsWith("size=") || line.startsWith("data_hash=")).toList();
    }

    /** When the video's keyframes are shown, in seconds. */
    private static List<String> keyframeTimes(Path media) throws Exception {
        return run("ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,flags", "-of",
            "csv=p=0", media.toString()).lines().filter(line -> line.contains(",K")).toList();
    }

    private static void append(ByteArrayOutputStream out, ByteBuffer bytes) {
        ByteBuffer view = bytes.duplicate();
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        out.write(copy, 0, copy.length);
    }

    private static String[] concat(String[]... parts) {
        return Stream.of(parts).flatMap(Stream::of).toArray(String[]::new);
    }
}

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rondo.systemtest.MediaTools.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The files recorders and music libraries hold, made by ffmpeg: an MPEG transport stream (H.264 +
 * AAC, a keyframe every second), FLAC and Ogg Vorbis. Each is ingested by a running server as a
 * continuous object, streams one fragment per round, and what the client receives decodes without
 * an error and lasts as long as the source; a stream of the recording opened in the middle of a
 * second starts at that second's keyframe.
 *
 * <p>Needs ffmpeg; skipped, saying so, where it is missing, unless {@code rondo.ffmpeg.required}
 * is set (as CI sets it).
 */
class RecordedMediaTest {

    private static final long SECOND = 1_000_000_000L;
    private static final int CLIP_SECONDS = 6;
    private static final String VIDEO = "testsrc=size=160x120:rate=25:duration=" + CLIP_SECONDS;
    private static final String TONE = "sine=frequency=440:sample_rate=48000:duration=" + CLIP_SECONDS;

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void makeFilesAndServe() throws Exception {
        boolean present = RondoUnderTest.onPath("ffmpeg").isPresent() && RondoUnderTest.onPath("ffprobe").isPresent();
        if (Boolean.getBoolean("rondo.ffmpeg.required") && !present) {
            fail("ffmpeg and ffprobe are required (rondo.ffmpeg.required) but not installed");
        }
        assumeTrue(present, "ffmpeg is not installed: install ffmpeg to test recorded media");
        run("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", VIDEO, "-f", "lavfi", "-i", TONE, "-c:v",
            "libx264", "-g", "25", "-c:a", "aac", "-f", "mpegts", temp.resolve("recording.ts").toString());
        run("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", TONE, "-c:a", "flac",
            temp.resolve("song.flac").toString());
        run("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", TONE, "-c:a", "libvorbis",
            temp.resolve("song.ogg").toString());
        rondo = RondoUnderTest.start(temp.resolve("rondo"), 1000);
        for (String name : List.of("recording.ts", "song.flac", "song.ogg")) {
            rondo.library.ingest().ingest(new IngestRequest(temp.resolve(name), "/" + name, null, 0), c -> { });
        }
    }

    @AfterAll
    static void stop() {
        if (rondo != null) {
            rondo.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"recording.ts, video/mp4, mp4", "song.flac, audio/mp4, m4a", "song.ogg, audio/webm, webm"})
    void streamsOneFragmentPerRoundThatDecodesAsLongAsTheSource(String name, String mimeType, String extension)
        throws Exception {
        MediaObject object = rondo.library.store().catalog().byName("/" + name).orElseThrow();
        assertEquals(Kind.CONTINUOUS, object.kind());
        assertEquals(mimeType, object.mimeType());
        List<Fragment> fragments = object.media().fragments();
        List<Data> received = new ArrayList<>();

        byte[] played = play(name, 0, received);

        assertEquals(fragments.size(), received.size(), "every fragment once");
        assertTrue(received.size() == CLIP_SECONDS || received.size() == CLIP_SECONDS + 1, "a fragment a round");
        Path out = Files.write(temp.resolve("played-" + name + "." + extension), played);
        assertEquals("", run("ffmpeg", "-nostdin", "-v", "error", "-i", out.toString(), "-f", "null", "-"),
            "ffmpeg decodes the stream without an error");
        assertEquals(CLIP_SECONDS, Double.parseDouble(run("ffprobe", "-v", "error", "-show_entries",
            "format=duration", "-of", "csv=p=0", out.toString()).strip()), 0.1, "as long as the source");
    }

    @Test
    void aRecordingOpenedInTheMiddleOfASecondStartsAtItsKeyframe() throws Exception {
        List<Fragment> fragments = rondo.library.store().catalog().byName("/recording.ts").orElseThrow().media()
            .fragments();
        for (Fragment f : fragments) {
            assertTrue(f.keyframeFirst(), "every round of the recording starts at a keyframe: " + f);
        }
        List<Data> received = new ArrayList<>();

        play("recording.ts", 3 * SECOND + 300_000_000L, received);

        assertEquals(3, received.get(0).fragmentIndex(), "the first DATA holds the keyframe of the third second");
    }

    private static byte[] play(String name, long startNs, List<Data> received) throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", rondo.streamPort())) {
            Accept accept = client.open(name, startNs, RondoUnderTest.PROFILE);
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

    private static void append(ByteArrayOutputStream out, ByteBuffer bytes) {
        ByteBuffer view = bytes.duplicate();
        byte[] copy = new byte[view.remaining()];
        view.get(copy);
        out.write(copy, 0, copy.length);
    }
}

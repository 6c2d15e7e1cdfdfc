package io.rondo.systemtest;

import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Durable;
import io.rondo.server.launch.ServeProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code kill -9} in the middle of a recording: ffmpeg publishes a live source in real time, the
 * server is killed at a random moment, and at its next start the recording is closed with every
 * round it had said was durable, and plays: nothing the publisher was told is durable is lost, at
 * most the round being written is. The kills are {@code rondo.live.kills} (2 by default; the
 * figure in docs/bench.md comes from 20).
 */
class LiveCrashTest {

    private static final ClientProfile PLAYER = new ClientProfile(50_000_000, 256L << 20);

    @TempDir
    Path temp;

    @Test
    @Timeout(600)
    void aRecordingKilledMidRoundKeepsEveryRoundItWasToldWasDurable() throws Exception {
        boolean present = RondoUnderTest.onPath("ffmpeg").isPresent() && RondoUnderTest.onPath("ffprobe").isPresent();
        if (Boolean.getBoolean("rondo.ffmpeg.required") && !present) {
            fail("ffmpeg and ffprobe are required (rondo.ffmpeg.required) but not installed");
        }
        assumeTrue(present, "ffmpeg is not installed: install ffmpeg to test live recording");
        int kills = Integer.getInteger("rondo.live.kills", 2);
        Random random = new Random(23);
        Path data = temp.resolve("data");
        List<String> lost = new ArrayList<>();
        for (int kill = 0; kill < kills; kill++) {
            String name = "/cams/crash-" + kill + ".mp4";
            Durable told;
            long roundsWritten;
            try (ServeProcess rondo = RondoServe.start(data, temp.resolve("serve-" + kill + ".log"))) {
                String token = Files.readString(data.resolve("rondo/publish.token")).trim();
                Process ffmpeg = liveSource(20);
                try (StreamClient client = StreamClient.connect(rondo.host(), rondo.streamPort())) {
                    Publisher publisher = client.publish(name, "mp4", 4_000_000, token);
                    int killAfter = 2 + random.nextInt(8);
                    try (InputStream media = ffmpeg.getInputStream()) {
                        byte[] chunk = new byte[4096];
                        int read;
                        while ((read = media.read(chunk)) > 0) {
                            publisher.send(chunk, 0, read);
                            if (publisher.lastDurable() != null && publisher.lastDurable().fragments() >= killAfter) {
                                break;
                            }
                        }
                    }
                    told = publisher.lastDurable();
                    rondo.handle().destroyForcibly();
                    rondo.handle().onExit().get(30, TimeUnit.SECONDS);
                } finally {
                    ffmpeg.destroyForcibly();
                }
                roundsWritten = told.fragments();
            }
            try (ServeProcess again = RondoServe.start(data, temp.resolve("again-" + kill + ".log"))) {
                List<Data> played = new ArrayList<>();
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (StreamClient viewer = StreamClient.connect(again.host(), again.streamPort())) {
                    Accept accept = viewer.open(name, 0, PLAYER);
                    append(bytes, accept.initSegment());
                    Data data1;
                    while ((data1 = viewer.nextData()) != null) {
                        played.add(data1);
                        append(bytes, data1.payload());
                    }
                }
                assertTrue(played.size() >= roundsWritten, "kill " + kill + ": the publisher was told " + roundsWritten
                    + " fragments were durable, the recording kept " + played.size());
                lost.add(played.size() + " of " + roundsWritten + "+ kept");
                Path copy = Files.write(temp.resolve("recovered-" + kill + ".mp4"), bytes.toByteArray());
                Process probe = new ProcessBuilder("ffmpeg", "-v", "error", "-i", copy.toString(), "-f", "null", "-")
                    .redirectErrorStream(true).start();
                String errors = new String(probe.getInputStream().readAllBytes());
                assertTrue(probe.waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, probe.exitValue(), "the recovered recording decodes: " + errors);
                assertEquals("", errors.trim(), "the recovered recording decodes without an error");
            }
        }
        System.out.println("LiveCrashTest: " + lost);
    }

    /** ffmpeg writing a live source in real time ({@code -re}) as live fragmented MP4 to its standard output. */
    private Process liveSource(int seconds) throws IOException {
        return new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
            "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t",
            String.valueOf(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", "-f", "mp4",
            "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void append(ByteArrayOutputStream out, ByteBuffer bytes) {
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        out.write(copy, 0, copy.length);
    }
}

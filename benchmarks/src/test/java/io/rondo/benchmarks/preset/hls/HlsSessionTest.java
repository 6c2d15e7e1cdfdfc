package io.rondo.benchmarks.preset.hls;

import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.scheduler.time.SystemClocks;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One HLS client against real servers on kernel-picked loopback ports: nginx serving a playlist pair
 * and the bytes they address, a plan of ranges past the file's end, and a server that refuses with 503.
 */
class HlsSessionTest {

    private static final long PART_NS = 100_000_000L;

    @TempDir
    Path dir;

    private final NanoClock clock = SystemClocks.nanoClock();

    @Test
    void aSessionReadsBothPlaylistsThenEveryPartOnItsScheduleWithEveryAnswerChecked() throws Exception {
        try (Nginx nginx = nginx(); HttpConnection connection = connect(nginx)) {
            SessionLog log = new SessionLog();
            long startNs = clock.nanoTime();
            new HlsSession(connection, HlsSession.playlists("/clip.mp4"), startNs, 3 * PART_NS, clock, log).run();
            long tookNs = clock.nanoTime() - startNs;
            assertNull(log.parts().firstFailure());
            assertEquals(1, log.admittedCount());
            assertEquals(0, log.refusedCount());
            assertEquals(3, log.parts().delays().getTotalCount(), "the fourth part starts after the 0.3 s played");
            assertEquals(3 * 10_000, log.parts().bytes());
            assertEquals(0, log.late());
            assertTrue(tookNs >= 2 * PART_NS, "part 2 was asked for 0.2 s after the start, not at " + tookNs + " ns");
        }
    }

    @Test
    void anAnswerOfOtherBytesThanAskedIsAFailedAnswer() throws Exception {
        try (Nginx nginx = nginx(); HttpConnection connection = connect(nginx)) {
            Playlists.Media plan = new Playlists.Media(new Playlists.ByteRange("/clip.mp4", 0, 1000), List.of(
                new Playlists.Part(new Playlists.ByteRange("/clip.mp4", 1000, 10_000), PART_NS),
                new Playlists.Part(new Playlists.ByteRange("/clip.mp4", 45_000, 10_000), PART_NS),
                new Playlists.Part(new Playlists.ByteRange("/clip.mp4", 90_000, 10_000), PART_NS)));
            SessionLog log = new SessionLog();
            new HlsSession(connection, HlsSession.plan(plan), clock.nanoTime(), 3 * PART_NS, clock, log).run();
            assertEquals(1, log.parts().delays().getTotalCount());
            assertEquals(2, log.parts().failures(), "5,000 bytes of 10,000 (206), then none (416)");
            assertTrue(log.parts().firstFailure().contains("answered 206 with 5000 bytes"),
                log.parts().firstFailure());
        }
    }

    @Test
    void aRefusalIsCountedWithItsReasonAndAsksForNothingMore() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread refuser = new Thread(() -> refuse(server));
            refuser.start();
            SessionLog log = new SessionLog();
            try (HttpConnection connection = new HttpConnection("127.0.0.1", server.getLocalPort())) {
                new HlsSession(connection, HlsSession.playlists("/clip.mp4"), clock.nanoTime(), 3 * PART_NS, clock,
                    log).run();
            }
            refuser.join();
            assertEquals(1, log.refusedCount());
            assertEquals(0, log.admittedCount());
            assertEquals("the disks have no room for another stream", log.firstRefusal());
            assertEquals(0, log.parts().failures());
            assertEquals(0, log.parts().delays().getTotalCount());
        }
    }

    /** nginx serving a 50,000-byte clip.mp4 and its playlists: 0.1 s parts of 10,000 bytes after a 1,000-byte init. */
    private Nginx nginx() throws Exception {
        Assumptions.assumeTrue(Nginx.available(), "nginx is not installed at " + Nginx.binary()
            + " (apt-get install nginx-light): the HLS client's test against a real nginx is skipped");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path www = Files.createDirectories(dir.resolve("www"));
        byte[] clip = new byte[50_000];
        new SplittableRandom(26).nextBytes(clip);
        Files.write(www.resolve("clip.mp4"), clip);
        Files.writeString(www.resolve("clip.mp4.m3u8"), "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n"
            + "media.m3u8?session=00ff\n");
        StringBuilder media = new StringBuilder("#EXTM3U\n#EXT-X-TARGETDURATION:1\n"
            + "#EXT-X-MAP:URI=\"clip.mp4?session=00ff\",BYTERANGE=\"1000@0\"\n");
        for (int k = 0; k < 4; k++) {
            media.append("#EXT-X-PART:DURATION=0.100,URI=\"clip.mp4?session=00ff\",BYTERANGE=\"10000@")
                .append(1000 + 10_000 * k).append("\"\n");
        }
        Files.writeString(www.resolve("media.m3u8"), media.append("#EXT-X-ENDLIST\n"));
        return Nginx.start(www, Nginx.Variant.SENDFILE, dir.resolve("nginx"), clock);
    }

    private static HttpConnection connect(Nginx nginx) {
        return new HttpConnection(nginx.address().getHostString(), nginx.address().getPort());
    }

    /** Answers one request with Rondo's refusal: 503, Retry-After and a reason in plain text. */
    private static void refuse(ServerSocket server) {
        try (Socket socket = server.accept()) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                StandardCharsets.US_ASCII));
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                // The request's head; the refusal does not depend on it.
            }
            byte[] reason = "the disks have no room for another stream\n".getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain\r\n"
                + "Content-Length: " + reason.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(reason);
            out.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

package io.rondo.systemtest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No Netty buffer is ever dropped unreleased: after HTTP downloads, ranges, a stream played to its
 * end, a stream abandoned, and a protocol fault (and after every other system test, which run
 * before this one in the same JVM), Netty's paranoid leak detector reports nothing. A deliberately
 * leaked canary buffer proves the detector and its capture are live, so this test can fail.
 */
@Order(Integer.MAX_VALUE)
class NettyLeakTest {

    private static final String CANARY = "rondo-systemtest-canary";

    @TempDir
    Path temp;

    // A server that loses buffers runs out of memory after days of traffic; none may leak in any path tested here.
    @Test
    void noBufferLeaksUnderRealTraffic() throws Exception {
        assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel(),
            "the module's surefire runs with -Dio.netty.leakDetection.level=paranoid");
        try (RondoUnderTest rondo = RondoUnderTest.start(temp, 1_300_000)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI doc = URI.create("http://127.0.0.1:" + rondo.httpPort() + RondoUnderTest.DOC);
            for (int i = 0; i < 3; i++) {
                HttpResponse<byte[]> whole = client.send(HttpRequest.newBuilder(doc).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
                assertArrayEquals(rondo.doc, whole.body());
            }
            client.send(HttpRequest.newBuilder(doc).header("Range", "bytes=0-9,500000-700000,-3").build(),
                HttpResponse.BodyHandlers.ofByteArray());
            client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rondo.httpPort() + "/")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
            try (RawStreamConnection gone = RawStreamConnection.connect(rondo.streamPort(), 0)) {
                gone.send(new io.rondo.client.protocol.Open("clip.webm", 0, RondoUnderTest.PROFILE));
                gone.next();
                gone.next();
                gone.reset();
            }
            try (RawStreamConnection bad = RawStreamConnection.connect(rondo.streamPort(), 0)) {
                bad.send(new byte[] {0x52, 0x01, 0x09, 0, 0, 0, 0, 0});
                while (bad.next() != null) {
                    // Read to the server's close; each read waits, with a timeout, for the next frame.
                }
            }
            assertArrayEquals(rondo.clip, rondo.play());
            rondo.awaitQuiet(Duration.ofSeconds(10));
        }
        ByteBuf canary = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        canary.touch(CANARY);
        canary = null;

        List<String> leaks = collectLeaks();

        assertTrue(leaks.stream().anyMatch(leak -> leak.contains(CANARY)),
            "the canary's leak was reported, so the detector and the capture work: " + leaks);
        List<String> real = leaks.stream().filter(leak -> !leak.contains(CANARY)).collect(Collectors.toList());
        assertEquals(List.of(), real, "Netty reported leaked buffers");
    }

    /**
     * Collects garbage and allocates tracked buffers until the canary is reported (bounded): Netty
     * reports the leaks the collector found when it next tracks an allocation.
     */
    private static List<String> collectLeaks() {
        await("Netty reports the canary's leak").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
            .until(() -> {
                System.gc();
                for (int i = 0; i < 16; i++) {
                    ByteBufAllocator.DEFAULT.buffer(32).release();
                    PooledByteBufAllocator.DEFAULT.directBuffer(32).release();
                    PooledByteBufAllocator.DEFAULT.heapBuffer(32).release();
                }
                return NettyLeakWatch.leaks().stream().anyMatch(leak -> leak.contains(CANARY));
            });
        return NettyLeakWatch.leaks();
    }
}

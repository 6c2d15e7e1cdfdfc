package io.rondo.server.stream;

import io.rondo.client.Gap;
import io.rondo.client.Reconnect;
import io.rondo.client.StreamClient;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two whole servers on loopback as two nodes of a cluster: one sends a client to the other by
 * REDIRECT, and a client whose node stops mid-stream goes on at the other, behind one address.
 */
@Timeout(60)
class RedirectServeTest {

    private static final ClientProfile PROFILE = new ClientProfile(4L << 20, 8L << 20);
    private static final long SECOND_NS = 1_000_000_000L;
    private static final String CLIP = "films/test pattern.webm";

    @TempDir
    Path temp;

    private final List<AutoCloseable> open = new ArrayList<>();
    /** The clip's fragments, as ingest cut it. */
    private long fragments;

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void aNodeWithoutTheObjectSendsAClientThatFollowsRedirectsToTheNodeThatHasItWhichPlaysItToTheEnd()
        throws Exception {
        RondoServer nodeB = node("b", true, Elsewhere.NONE);
        List<String> asked = new ArrayList<>();
        RondoServer nodeA = node("a", false, (object, full) -> {
            asked.add(object + (full ? " (full)" : ""));
            return Optional.of(target(nodeB));
        });

        List<Long> played = new ArrayList<>();
        try (StreamClient client = StreamClient.connect("127.0.0.1", nodeA.streams().address().getPort())) {
            client.open(CLIP, 4 * SECOND_NS, PROFILE);
            for (Data d = client.nextData(); d != null; d = client.nextData()) {
                played.add(d.fragmentIndex());
            }
            assertEquals(1, client.redirects());
        }
        assertEquals(LongStream.range(played.get(0), fragments).boxed().toList(), played,
            "node b played the rest of the clip, to END");
        assertTrue(played.get(0) <= 4, "from the keyframe at or before 4 s: " + played);
        assertEquals(List.of(CLIP), asked, "node a asked where the object it lacks is");
        assertEquals(1L, nodeA.streams().admissionLog().redirected().get("not-here"));
        assertTrue(nodeA.metrics().scrape(null).contains("rondo_stream_redirects_total{reason=\"not-here\"} 1.0"),
            "counted in the metrics");
    }

    @Test
    void aClientThatDoesNotFollowRedirectsIsRefusedNotFoundAsBefore() throws Exception {
        RondoServer nodeB = node("b", true, Elsewhere.NONE);
        RondoServer nodeA = node("a", false, (object, full) -> Optional.of(target(nodeB)));
        try (Socket socket = new Socket("127.0.0.1", nodeA.streams().address().getPort())) {
            socket.getOutputStream().write(FrameCodec.encode(new Open(CLIP, 0, PROFILE)).array());
            Reject reject = assertInstanceOf(Reject.class, firstFrame(socket.getInputStream()));
            assertEquals(RejectReason.NOT_FOUND, reject.reason());
        }
        assertTrue(nodeA.streams().admissionLog().redirected().isEmpty());
    }

    @Test
    void aStreamWhoseNodeStopsGoesOnAtTheFragmentAfterItsLastOnTheNodeBehindTheSameAddress() throws Exception {
        RondoServer nodeA = node("a", true, Elsewhere.NONE);
        RondoServer nodeB = node("b", true, Elsewhere.NONE);
        TcpForwarder proxy = new TcpForwarder(nodeA.streams().address());
        open.add(proxy);

        List<Long> played = new ArrayList<>();
        try (StreamClient client = StreamClient.connect("127.0.0.1", proxy.port(), Duration.ofSeconds(5),
            Duration.ofSeconds(1), new Reconnect(3, Duration.ofMillis(50), SystemClocks.utc()))) {
            client.open(CLIP, 0, PROFILE);
            for (Data d = client.nextData(); d != null; d = client.nextData()) {
                played.add(d.fragmentIndex());
                if (d.fragmentIndex() == 1) {
                    proxy.pointAt(nodeB.streams().address());
                    nodeA.close();
                }
            }
            assertEquals(1, client.reconnects());
            List<Gap> gaps = client.gaps();
            assertEquals(1, gaps.size(), "one gap: " + gaps);
            Gap gap = gaps.get(0);
            assertEquals(gap.lastFragment() + 1, gap.nextFragment(), "it went on at the next fragment: " + gap);
            assertEquals(0, gap.fragmentsSkipped());
            assertTrue(gap.length().compareTo(Duration.ofSeconds(5)) < 0, "a gap of " + gap.length());
        }
        assertEquals(LongStream.range(0, fragments).boxed().toList(), played, "every fragment once, in order");
    }

    /** A node: its own data folder and ports, holding the clip or not. */
    private RondoServer node(String name, boolean holdsClip, Elsewhere elsewhere) throws Exception {
        Library library = Library.open(RondoConfig.defaults(), temp.resolve(name), SystemClocks.utc());
        open.add(library);
        if (holdsClip) {
            Path clip = temp.resolve(name + "-clip.webm");
            try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
                Files.write(clip, in.readAllBytes());
            }
            fragments = library.ingest().ingest(new IngestRequest(clip, "/" + CLIP, null, 0), copied -> { }).media()
                .fragments().size();
        }
        RondoServer server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk())
            .elsewhere(elsewhere));
        open.add(server);
        return server;
    }

    private static Elsewhere.Target target(RondoServer node) {
        return new Elsewhere.Target("b", "127.0.0.1", node.streams().address().getPort(),
            node.http().address().getPort());
    }

    private static Frame firstFrame(InputStream in) throws IOException {
        FrameDecoder decoder = new FrameDecoder();
        byte[] chunk = new byte[4096];
        for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
            Frame frame = decoder.next(ByteBuffer.wrap(chunk, 0, n));
            if (frame != null) {
                return frame;
            }
        }
        throw new IOException("closed before a frame");
    }
}

package io.rondo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Redirect;
import io.rondo.client.protocol.RedirectReason;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A client sent to another node by REDIRECT, and one whose connection drops mid-stream. */
class StreamClientRedirectTest {
    private static final ClientProfile PROFILE = new ClientProfile(2_500_000, 8_388_608);
    private static final long SECOND_NS = 1_000_000_000L;
    private static final Accept ACCEPT = new Accept(7, SECOND_NS, 4_000_000, "vp9,opus", ByteBuffer.allocate(0));
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REPORTS = Duration.ofSeconds(1);

    /** Fragment {@code index} of a 1 s-fragment object, sent as DATA number {@code sequence}. */
    private static Data fragment(long sequence, long index) {
        return new Data(sequence, index, index * SECOND_NS, sequence * SECOND_NS, false,
                ByteBuffer.wrap(new byte[] {(byte) index}));
    }

    /** Reconnects with a wall clock that moves 250 ms each time it is read. */
    private static Reconnect reconnect(int attempts) {
        AtomicLong millis = new AtomicLong(1_795_000_000_000L);
        return new Reconnect(attempts, Duration.ofMillis(1), () -> Instant.ofEpochMilli(millis.getAndAdd(250)));
    }

    @Test
    void aRedirectedOpenIsSentToTheNodeNamedAndPlaysThere() throws Exception {
        try (FakeServer nodeB = FakeServer.start(peer -> {
            assertEquals(new Open("demo/a b.webm", 3 * SECOND_NS, PROFILE, false, true), peer.expect(Open.class),
                    "the same OPEN");
            peer.send(ACCEPT, fragment(0, 3), new End());
            peer.awaitClientClose();
        }); FakeServer nodeA = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(new Redirect(RedirectReason.NOT_HERE, new StreamUrl("127.0.0.1", nodeB.port(), "demo/a b.webm")
                    .url()));
            peer.awaitClientClose();
        })) {
            try (StreamClient client = StreamClient.connect("127.0.0.1", nodeA.port(), TIMEOUT, REPORTS)) {
                assertEquals(ACCEPT, client.open("demo/a b.webm", 3 * SECOND_NS, PROFILE));
                assertEquals(fragment(0, 3), client.nextData());
                assertNull(client.nextData());
                assertEquals(1, client.redirects());
            }
            nodeA.await();
            nodeB.await();
        }
    }

    @Test
    void redirectsThatGoRoundFailTheOpenNamingTheNodesAfterThree() throws Exception {
        int[] ports = new int[5];
        List<FakeServer> nodes = new ArrayList<>();
        try {
            for (int i = 4; i >= 0; i--) {
                int next = i;
                nodes.add(0, FakeServer.start(peer -> {
                    peer.expect(Open.class);
                    peer.send(new Redirect(RedirectReason.NO_ROOM, "rondo://127.0.0.1:" + ports[next + 1 < 5 ? next + 1
                            : 0] + "/a.webm"));
                    peer.awaitClientClose();
                }));
                ports[i] = nodes.get(0).port();
            }
            try (StreamClient client = StreamClient.connect("127.0.0.1", ports[0], TIMEOUT, REPORTS)) {
                IOException e = assertThrows(IOException.class, () -> client.open("a.webm", 0, PROFILE));
                assertEquals("the OPEN of a.webm went round 3 redirects without an answer: 127.0.0.1:" + ports[0]
                        + " -> 127.0.0.1:" + ports[1] + " -> 127.0.0.1:" + ports[2] + " -> 127.0.0.1:" + ports[3]
                        + " -> rondo://127.0.0.1:" + ports[4] + "/a.webm; the nodes disagree on where it is",
                        e.getMessage());
            }
            for (int i = 0; i < 4; i++) {
                nodes.get(i).await();
            }
        } finally {
            for (FakeServer node : nodes) {
                node.close();
            }
        }
    }

    @Test
    void aConnectionLostMidStreamIsOpenedAgainAtTheNextFragmentAndLeavesOneGap() throws Exception {
        try (FakeServer server = FakeServer.serving(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT, fragment(0, 0), fragment(1, 1));
            peer.close();
        }, peer -> {
            assertEquals(new Open("demo/a.webm", 2 * SECOND_NS, PROFILE, false, true), peer.expect(Open.class),
                    "at the fragment after the last received");
            peer.send(ACCEPT, fragment(0, 1), fragment(1, 2), fragment(2, 3), new End());
            peer.awaitClientClose();
        })) {
            try (StreamClient client = StreamClient.connect("127.0.0.1", server.port(), TIMEOUT, REPORTS,
                    reconnect(3))) {
                client.open("demo/a.webm", 0, PROFILE);
                List<Long> played = new ArrayList<>();
                for (Data d = client.nextData(); d != null; d = client.nextData()) {
                    played.add(d.fragmentIndex());
                }
                assertEquals(List.of(0L, 1L, 2L, 3L), played, "fragment 1, sent again from its keyframe, is dropped");
                assertEquals(1, client.reconnects());
                Gap gap = client.gaps().get(0);
                assertEquals(1, client.gaps().size());
                assertEquals(1, gap.lastFragment());
                assertEquals(2, gap.nextFragment());
                assertEquals(0, gap.fragmentsSkipped());
                assertEquals(Duration.ofMillis(250), gap.length(), "from the loss to the next DATA, on its clock");
                assertTrue(gap.cause().contains("closed the connection"), gap.cause());
            }
            server.await();
        }
    }

    @Test
    void aServerStoppingIsALossAndAStreamLostAfterItsLastFragmentIsOver() throws Exception {
        try (FakeServer server = FakeServer.serving(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT, fragment(0, 9), new ErrorFrame(ErrorCode.SHUTTING_DOWN, "the server is stopping"));
            peer.awaitClientClose();
        }, peer -> {
            peer.expect(Open.class);
            peer.send(new Reject(RejectReason.START_OUT_OF_RANGE, 0, "start past the end"));
            peer.awaitClientClose();
        })) {
            try (StreamClient client = StreamClient.connect("127.0.0.1", server.port(), TIMEOUT, REPORTS,
                    reconnect(2))) {
                client.open("demo/a.webm", 9 * SECOND_NS, PROFILE);
                assertEquals(9, client.nextData().fragmentIndex());
                assertNull(client.nextData(), "fragment 9 was the last: the stream is over");
                assertEquals(List.of(), client.gaps());
            }
            server.await();
        }
    }

    @Test
    void withoutReconnectALostConnectionFailsTheStream() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT, fragment(0, 0));
            peer.close();
        })) {
            try (StreamClient client = StreamClient.connect("127.0.0.1", server.port(), TIMEOUT, REPORTS)) {
                client.open("demo/a.webm", 0, PROFILE);
                client.nextData();
                IOException e = assertThrows(IOException.class, client::nextData);
                assertTrue(e.getMessage().contains("closed the connection"), e.getMessage());
                assertEquals(0, client.reconnects());
            }
            server.await();
        }
    }
}

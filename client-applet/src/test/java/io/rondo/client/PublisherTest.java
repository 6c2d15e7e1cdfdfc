package io.rondo.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Media;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A publisher as a recording client sees it: its bytes arrive whole, and each way the server answers is told. */
class PublisherTest {
    private static final Accept ACCEPT = new Accept(9, 1_000_000_000L, 8_000_000, "", ByteBuffer.allocate(0));
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String TOKEN = "publish-token-01";

    private static StreamClient connect(FakeServer server) throws IOException {
        return StreamClient.connect("localhost", server.port(), TIMEOUT, Duration.ofSeconds(1));
    }

    private static byte[] media(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + i / 251);
        }
        return b;
    }

    @Test
    void theBytesGoOutAsMediaFramesWithinTheClientFrameLimitAndFinishReturnsTheLastDurable() throws Exception {
        byte[] sent = media(200_000);
        List<Integer> frameSizes = new ArrayList<>();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        try (FakeServer server = FakeServer.start(peer -> {
            assertEquals(new Publish("cams/door.mp4", Publish.MP4, 8_000_000, TOKEN), peer.expect(Publish.class));
            peer.send(ACCEPT, new Durable(0, 0, 0));
            for (Frame f = peer.receive(); !(f instanceof Close); f = peer.receive()) {
                ByteBuffer payload = ((Media) f).payload();
                byte[] bytes = new byte[payload.remaining()];
                payload.get(bytes);
                frameSizes.add(bytes.length);
                received.write(bytes);
            }
            peer.send(new Durable(3, 2_500_000_000L, received.size()), new End());
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server);
                 Publisher publisher = client.publish("cams/door.mp4", Publish.MP4, 8_000_000, TOKEN)) {
                assertEquals(ACCEPT, publisher.accept());
                publisher.send(sent, 0, 100);
                publisher.send(sent, 100, 0);
                publisher.send(sent, 100, sent.length - 100);
                assertEquals(sent.length, publisher.bytesSent());
                Durable last = publisher.finish(TIMEOUT);
                assertEquals(new Durable(3, 2_500_000_000L, sent.length), last);
                assertEquals(last, publisher.lastDurable());
                assertThrows(IllegalStateException.class, () -> publisher.send(sent, 0, 1), "the recording is over");
            }
            server.await();
        }
        assertArrayEquals(sent, received.toByteArray(), "every byte, in order");
        assertEquals(List.of(100, Media.MAX_BYTES, Media.MAX_BYTES, Media.MAX_BYTES, 199_900 - 3 * Media.MAX_BYTES),
                frameSizes);
        assertEquals(64 * 1024, FrameCodec.HEADER_LENGTH + Media.MAX_BYTES, "a server's default client-frame limit");
    }

    @Test
    void aRejectedPublishSaysWhyAndLeavesTheConnectionUsable() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            assertEquals("", peer.expect(Publish.class).token());
            peer.send(new Reject(RejectReason.FORBIDDEN, 0, "recording needs a token with the publish scope"));
            peer.expect(Publish.class);
            peer.send(new Reject(RejectReason.NAME_TAKEN, 0, ""));
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server)) {
                StreamRejectedException e = assertThrows(StreamRejectedException.class,
                        () -> client.publish("cams/door.mp4", Publish.MP4, 1_000_000, ""));
                assertEquals(RejectReason.FORBIDDEN, e.reject().reason());
                assertEquals("stream of cams/door.mp4 rejected: FORBIDDEN (recording needs a token with the publish "
                        + "scope)", e.getMessage());
                assertEquals(RejectReason.NAME_TAKEN, assertThrows(StreamRejectedException.class,
                        () -> client.publish("cams/door.mp4", Publish.MP4, 1_000_000, TOKEN)).reject().reason());
            }
            server.await();
        }
    }

    @Test
    void anErrorThatEndsTheRecordingIsThrownByTheNextSend() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Publish.class);
            peer.send(ACCEPT);
            peer.expect(Media.class);
            peer.send(new ErrorFrame(ErrorCode.RATE_EXCEEDED, "sent 9.1 Mbit/s over 3 s; the peak is 8 Mbit/s"));
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server);
                 Publisher publisher = client.publish("cams/door.mp4", Publish.MP4, 8_000_000, TOKEN)) {
                byte[] chunk = media(Media.MAX_BYTES);
                StreamErrorException e = assertThrows(StreamErrorException.class, () -> {
                    for (int i = 0; i < 1_000_000; i++) {
                        publisher.send(chunk, 0, chunk.length);
                    }
                });
                assertEquals(ErrorCode.RATE_EXCEEDED, e.error().errorCode());
                assertEquals(ErrorCode.RATE_EXCEEDED, assertThrows(StreamErrorException.class,
                        () -> publisher.finish(TIMEOUT)).error().errorCode(), "finish says it again");
            }
            server.await();
        }
    }

    @Test
    void theServersDurableFramesAreReadWhileTheCallerOnlyWrites() throws Exception {
        int durables = 200_000;
        byte[] sent = media(4 << 20);
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Publish.class);
            peer.send(ACCEPT);
            ByteBuffer all = ByteBuffer.allocate(durables * 32);
            for (int i = 1; i <= durables; i++) {
                FrameCodec.encode(new Durable(i, i, i), all);
            }
            // More than the sockets buffer, before reading any MEDIA: a client that did not read would stall both.
            peer.sendRaw(all.array());
            long bytes = 0;
            for (Frame f = peer.receive(); !(f instanceof Close); f = peer.receive()) {
                bytes += ((Media) f).payload().remaining();
            }
            assertEquals(sent.length, bytes);
            peer.send(new Durable(durables + 1, durables + 1, bytes), new End());
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server);
                 Publisher publisher = client.publish("cams/door.mp4", Publish.WEBM, 8_000_000, TOKEN)) {
                publisher.send(sent, 0, sent.length);
                assertEquals(new Durable(durables + 1, durables + 1, sent.length), publisher.finish(TIMEOUT));
            }
            server.await();
        }
    }

    @Test
    void aFrameAServerNeverSendsAPublisherIsAProtocolFault() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Publish.class);
            peer.send(ACCEPT, new Data(0, 0, 0, 0, false, ByteBuffer.allocate(1)));
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server);
                 Publisher publisher = client.publish("cams/door.mp4", Publish.MP4, 8_000_000, TOKEN)) {
                ProtocolException e = assertThrows(ProtocolException.class, () -> publisher.finish(TIMEOUT));
                assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
                assertTrue(e.getMessage().contains("sent DATA to a publisher"), e.getMessage());
                assertNull(publisher.lastDurable());
            }
            server.await();
        }
    }
}

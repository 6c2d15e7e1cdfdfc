package io.rondo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Pause;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;
import io.rondo.client.protocol.Report;
import io.rondo.client.protocol.Resume;
import io.rondo.client.protocol.Seek;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamClientTest {
    private static final ClientProfile PROFILE = new ClientProfile(2_500_000, 8_388_608);
    private static final Accept ACCEPT = new Accept(7, 1_000_000_000L, 4_000_000, "vp9,opus",
            ByteBuffer.wrap(new byte[] {0x1a, 0x45, (byte) 0xdf, (byte) 0xa3}));
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REPORT_INTERVAL = Duration.ofSeconds(1);

    private static Data data(long sequence, boolean discontinuity, int bytes) {
        byte[] payload = new byte[bytes];
        Arrays.fill(payload, (byte) sequence);
        return new Data(sequence, 10 + sequence, (10 + sequence) * 1_000_000_000L, sequence * 1_000_000_000L,
                discontinuity, ByteBuffer.wrap(payload));
    }

    private static StreamClient connect(FakeServer server) throws IOException {
        return StreamClient.connect("localhost", server.port(), TIMEOUT, REPORT_INTERVAL);
    }

    @Test
    void acceptedStreamDeliversDataInOrderUntilEnd() throws Exception {
        List<Data> sent = List.of(data(0, false, 1000), data(1, false, 70_000), data(2, false, 0), data(3, false, 5));
        try (FakeServer server = FakeServer.start(peer -> {
            Open open = peer.expect(Open.class);
            assertEquals(new Open("demo/a.webm", 30_000_000_000L, PROFILE, false, true), open, "it follows REDIRECT");
            peer.send(ACCEPT);
            for (Data d : sent) {
                peer.send(d);
            }
            peer.send(new End());
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server)) {
                assertEquals(ACCEPT, client.open("demo/a.webm", 30_000_000_000L, PROFILE));
                List<Data> received = new ArrayList<>();
                for (Data d = client.nextData(); d != null; d = client.nextData()) {
                    received.add(d);
                }
                assertEquals(sent, received);
                assertEquals(71_005, client.bytesReceived());
                assertNull(client.nextData(), "after END the stream stays over");
            }
            server.await();
        }
    }

    @Test
    void rejectedOpenCarriesReasonAndRetryAfterAndLeavesTheConnectionUsable() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(new Reject(RejectReason.DISK_TIME, 5, "disk 2 is full"));
            peer.expect(Open.class);
            peer.send(ACCEPT, new End());
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server)) {
                StreamRejectedException e = assertThrows(StreamRejectedException.class,
                        () -> client.open("demo/a.webm", 0, PROFILE));
                assertEquals(RejectReason.DISK_TIME, e.reject().reason());
                assertEquals(5, e.reject().retryAfterSeconds());
                assertEquals("stream of demo/a.webm rejected: DISK_TIME, retry after 5 s (disk 2 is full)",
                        e.getMessage());
                assertEquals(ACCEPT, client.open("demo/a.webm", 0, PROFILE));
                assertNull(client.nextData());
            }
            server.await();
        }
    }

    @Test
    void anErrorFromTheServerEndsTheStreamWithItsCodeAndMessage() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT, data(0, false, 10), new ErrorFrame(ErrorCode.READ_FAILED, "disk 1: I/O error"));
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server)) {
                client.open("demo/a.webm", 0, PROFILE);
                assertEquals(data(0, false, 10), client.nextData());
                StreamErrorException e = assertThrows(StreamErrorException.class, client::nextData);
                assertEquals(ErrorCode.READ_FAILED, e.error().errorCode());
                assertEquals("server error 0x0101 READ_FAILED: disk 1: I/O error", e.getMessage());
                assertNull(client.nextData());
            }
            server.await();
        }
    }

    @Test
    void anErrorInsteadOfAnAnswerToOpenIsThrownFromOpen() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(new ErrorFrame(ErrorCode.UNSUPPORTED_VERSION, "this server speaks version 2"));
            peer.close();
        })) {
            try (StreamClient client = connect(server)) {
                StreamErrorException e = assertThrows(StreamErrorException.class,
                        () -> client.open("demo/a.webm", 0, PROFILE));
                assertEquals(ErrorCode.UNSUPPORTED_VERSION.code(), e.error().code());
            }
            server.await();
        }
    }

    @Test
    void theServerClosingMidFrameIsAClearIOException() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT);
            peer.sendRaw(Arrays.copyOf(FrameCodec.encode(data(0, false, 100)).array(), 20));
            peer.close();
        })) {
            try (StreamClient client = connect(server)) {
                client.open("demo/a.webm", 0, PROFILE);
                ProtocolException e = assertThrows(ProtocolException.class, client::nextData);
                assertEquals(ErrorCode.TRUNCATED_FRAME, e.code());
                assertEquals("the connection ended inside a DATA frame, after 20 of its 140 bytes", e.getMessage());
            }
            server.await();
        }
    }

    @Test
    void theServerClosingBetweenFramesWithoutEndIsAnIOException() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT);
            peer.close();
        })) {
            try (StreamClient client = connect(server)) {
                client.open("demo/a.webm", 0, PROFILE);
                IOException e = assertThrows(IOException.class, client::nextData);
                assertTrue(e.getMessage().contains("closed the connection while the client was waiting for DATA"),
                        e.getMessage());
            }
            server.await();
        }
    }

    @Test
    void aSilentServerTimesOut() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.awaitClientClose();
        })) {
            try (StreamClient client = StreamClient.connect("localhost", server.port(), Duration.ofMillis(300),
                    REPORT_INTERVAL)) {
                long startNs = System.nanoTime();
                SocketTimeoutException e = assertThrows(SocketTimeoutException.class,
                        () -> client.open("demo/a.webm", 0, PROFILE));
                long waitedMs = (System.nanoTime() - startNs) / 1_000_000;
                // A lower bound only: a loaded machine can make the wait longer, never shorter.
                assertTrue(waitedMs >= 250, "gave up after " + waitedMs + " ms, before its 300 ms timeout");
                assertTrue(e.getMessage().matches("no bytes from localhost:\\d+ for 300 ms while waiting for the "
                        + "answer to OPEN"), e.getMessage());
            }
            server.await();
        }
    }

    @Test
    void pauseResumeSeekAndCloseReachTheServerAndDataFromBeforeTheSeekIsSkipped() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT, data(0, false, 10));
            peer.expect(Pause.class);
            peer.expect(Resume.class);
            assertEquals(new Seek(40_000_000_000L), peer.expect(Seek.class));
            peer.send(data(1, false, 10), data(2, false, 10), data(3, true, 10), data(4, false, 10));
            peer.expect(Close.class);
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server)) {
                client.open("demo/a.webm", 0, PROFILE);
                assertEquals(0, client.nextData().sequence());
                client.pause();
                client.resume();
                client.seek(40_000_000_000L);
                Data afterSeek = client.nextData();
                assertEquals(3, afterSeek.sequence(), "DATA sent before the seek took effect is dropped");
                assertTrue(afterSeek.discontinuity());
                assertEquals(4, client.nextData().sequence());
            }
            server.await();
        }
    }

    @Test
    void aLiveStreamOpensFromTheLiveEdgeRemembersTheLatestLiveAndGoesLiveAgain() throws Exception {
        Accept live = new Accept(9, 1_000_000_000L, 2_000_000, "vp8,opus", ByteBuffer.allocate(0), true);
        try (FakeServer server = FakeServer.start(peer -> {
            assertEquals(new Open("cams/door.webm", 20_000_000_000L, PROFILE, true, true), peer.expect(Open.class));
            peer.send(live, new Live(40_000_000_000L, 39_000_000_000L, false), data(0, false, 10),
                    new Live(41_000_000_000L, 40_000_000_000L, false), data(1, false, 10));
            assertEquals(new Seek(0, true), peer.expect(Seek.class));
            peer.send(data(2, false, 10), data(3, true, 10), new Live(42_000_000_000L, 42_000_000_000L, true),
                    new End());
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server)) {
                assertTrue(client.openFromLive("cams/door.webm", 20_000_000_000L, PROFILE).live());
                assertNull(client.lastLive(), "no LIVE read before the first nextData");
                assertEquals(0, client.nextData().sequence(), "LIVE is not handed out as DATA");
                assertEquals(new Live(40_000_000_000L, 39_000_000_000L, false), client.lastLive());
                assertEquals(1, client.nextData().sequence());
                assertEquals(41_000_000_000L, client.lastLive().recordedNs());
                client.seekFromLive(0);
                assertEquals(3, client.nextData().sequence(), "DATA from before going live is dropped");
                assertNull(client.nextData());
                assertEquals(new Live(42_000_000_000L, 42_000_000_000L, true), client.lastLive());
            }
            server.await();
        }
    }

    @Test
    void reportsGoOutPeriodicallyWithTheBufferLevelAndBytesReceived() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(ACCEPT, data(0, false, 100));
            Report report;
            do {
                report = (Report) peer.receive();
            } while (report.bufferedNs() != 2_000_000_000L);
            assertEquals(new Report(2_000_000_000L, 1_000, 100), report);
            peer.send(new End());
            peer.awaitClientClose();
        })) {
            try (StreamClient client = StreamClient.connect("localhost", server.port(), TIMEOUT,
                    Duration.ofMillis(20))) {
                client.open("demo/a.webm", 0, PROFILE);
                assertEquals(100, client.nextData().payload().remaining());
                client.bufferLevel(2_000_000_000L, 1_000);
                assertNull(client.nextData(), "END comes once the server has seen the report");
            }
            server.await();
        }
    }

    @Test
    void aFrameTheServerMustNotSendIsAProtocolError() throws Exception {
        try (FakeServer server = FakeServer.start(peer -> {
            peer.expect(Open.class);
            peer.send(data(0, false, 1));
            peer.awaitClientClose();
        })) {
            try (StreamClient client = connect(server)) {
                ProtocolException e = assertThrows(ProtocolException.class,
                        () -> client.open("demo/a.webm", 0, PROFILE));
                assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
                assertTrue(e.getMessage().contains("sent DATA after OPEN; expected ACCEPT, REJECT, REDIRECT or ERROR"),
                        e.getMessage());
            }
            server.await();
        }
    }

    @Test
    void controlsNeedAnOpenStream() throws Exception {
        try (FakeServer server = FakeServer.start(FakeServer.Peer::awaitClientClose)) {
            try (StreamClient client = connect(server)) {
                assertThrows(IllegalStateException.class, client::nextData);
                assertThrows(IllegalStateException.class, client::pause);
                assertThrows(IllegalStateException.class, () -> client.seek(0));
                assertFalse(client.bytesReceived() != 0);
            }
            server.await();
        }
    }
}

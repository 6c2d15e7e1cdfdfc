package io.rondo.systemtest;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Pause;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.server.config.StreamSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stream protocol's WebSocket binding at {@code /stream}, as a browser or a hostile client
 * meets it: which pages may connect, what a text or a fragmented message gets, a message past the
 * client-frame limit, and the same deadlines as the stream port. The server runs with a 1 s client
 * timeout and open timeout and lets in its own pages and one other origin.
 */
class WebSocketBindingTest {

    private static final Duration QUIET = Duration.ofSeconds(10);
    private static final long TIMEOUT_MS = 1000;
    private static final String PARTNER = "https://player.example:8443";

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 1024, AdmissionConfig.defaults(), StreamSettings.defaults()
            .withTimeouts(TIMEOUT_MS, TIMEOUT_MS).withAllowedOrigins(List.of(StreamSettings.SAME_ORIGIN, PARTNER)));
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    @AfterEach
    void everythingIsGivenBack() {
        rondo.awaitQuiet(QUIET);
    }

    private static RawWebSocket upgraded(String origin) throws IOException {
        RawWebSocket socket = RawWebSocket.connect(rondo.httpPort(), origin);
        assertEquals(101, socket.handshake().status(), socket.handshake().head());
        return socket;
    }

    /** The next stream frame that is not DATA already on its way, or null at a close. */
    private static Frame afterData(RawWebSocket socket) throws IOException {
        Frame frame = socket.next().frame();
        while (frame instanceof io.rondo.client.protocol.Data) {
            frame = socket.next().frame();
        }
        return frame;
    }

    /** The server answered with ERROR {@code expected}, then closed: a close message or the connection's end. */
    private static void assertErrorThenClosed(ErrorCode expected, RawWebSocket socket) throws IOException {
        Frame answer = afterData(socket);
        ErrorFrame error = assertInstanceOf(ErrorFrame.class, answer, "an ERROR, not " + answer);
        assertEquals(expected.code(), error.code(), error.toString());
        assertNull(socket.next().frame(), "after ERROR the server closes");
    }

    // The bundled player (a page of this server), a program (no Origin) and a page of a listed origin may stream;
    // each gets the stream, and CLOSE ends it with END.
    @ParameterizedTest(name = "Origin: {0}")
    @ValueSource(strings = {"", "same", PARTNER, "HTTPS://PLAYER.EXAMPLE:8443"})
    void allowedPagesAndProgramsStream(String origin) throws Exception {
        String sent = origin.isEmpty() ? null : origin.equals("same") ? "http://127.0.0.1:" + rondo.httpPort() : origin;
        try (RawWebSocket socket = upgraded(sent)) {
            socket.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, socket.next().frame());
            socket.send(new Close());
            assertInstanceOf(End.class, afterData(socket));
        }
    }

    // Another site's page cannot open a stream with its viewers' browsers: 403 before any upgrade.
    @ParameterizedTest(name = "Origin: {0}")
    @ValueSource(strings = {"https://evil.example", "http://localhost:1", "null", "http://127.0.0.1"})
    void otherPagesAreRefusedBeforeTheUpgrade(String origin) throws Exception {
        try (RawWebSocket socket = RawWebSocket.connect(rondo.httpPort(), origin)) {
            assertEquals(403, socket.handshake().status(), socket.handshake().head());
        }
    }

    // Stream frames are binary messages: a text message is a MALFORMED_FRAME, answered and closed.
    @Test
    void aTextMessageIsAMalformedFrame() throws Exception {
        try (RawWebSocket socket = upgraded(null)) {
            socket.sendFrame(RawWebSocket.TEXT, true, "{\"open\": \"clip.webm\"}".getBytes(StandardCharsets.UTF_8));
            assertErrorThenClosed(ErrorCode.MALFORMED_FRAME, socket);
        }
    }

    // A client library that fragments a message (RFC 6455 allows it) is understood: the fragments are one frame.
    @Test
    void aFragmentedBinaryMessageIsGatheredIntoOneFrame() throws Exception {
        byte[] open = FrameCodec.encode(RondoUnderTest.openClip()).array();
        try (RawWebSocket socket = upgraded(null)) {
            socket.sendFrame(RawWebSocket.BINARY, false, Arrays.copyOfRange(open, 0, 5));
            socket.sendFrame(RawWebSocket.CONTINUATION, false, Arrays.copyOfRange(open, 5, 20));
            socket.sendFrame(RawWebSocket.CONTINUATION, true, Arrays.copyOfRange(open, 20, open.length));
            assertInstanceOf(Accept.class, socket.next().frame());
            socket.send(new Close());
            assertInstanceOf(End.class, afterData(socket));
        }
    }

    // A message longer than the largest client frame is refused with FRAME_TOO_LARGE, whether it comes as one
    // frame (refused at the frame's header, before its bytes are waited for) or in fragments.
    @Test
    void aMessagePastTheClientFrameLimitIsTooLarge() throws Exception {
        try (RawWebSocket oneFrame = upgraded(null); RawWebSocket fragments = upgraded(null)) {
            oneFrame.sendHeadOnly(RawWebSocket.BINARY, 16 << 20);
            assertErrorThenClosed(ErrorCode.FRAME_TOO_LARGE, oneFrame);

            byte[] half = ByteBuffer.allocate(StreamSettings.DEFAULT_MAX_CLIENT_FRAME / 2 + 1)
                .put(new byte[] {0x52, 1, 1, 0}).array();
            fragments.sendFrame(RawWebSocket.BINARY, false, half);
            fragments.sendFrame(RawWebSocket.CONTINUATION, false, new byte[half.length]);
            assertErrorThenClosed(ErrorCode.FRAME_TOO_LARGE, fragments);
        }
    }

    // A paused viewer that falls silent is told CLIENT_TIMEOUT, as on the stream port, and its admission freed.
    @Test
    void aPausedStreamWhoseClientFallsSilentIsEndedWithClientTimeout() throws Exception {
        try (RawWebSocket socket = upgraded(null)) {
            socket.send(RondoUnderTest.openClip());
            assertInstanceOf(Accept.class, socket.next().frame());
            socket.send(new Pause());
            long pausedNs = System.nanoTime();
            assertErrorThenClosed(ErrorCode.CLIENT_TIMEOUT, socket);
            assertTrue(System.nanoTime() - pausedNs >= (TIMEOUT_MS - 50) * 1_000_000L, "not before the timeout");
        }
    }

    // An upgraded connection that never sends an OPEN is closed after the open timeout.
    @Test
    void anUpgradedConnectionThatNeverOpensIsClosed() throws Exception {
        try (RawWebSocket socket = upgraded(null)) {
            assertErrorThenClosed(ErrorCode.CLIENT_TIMEOUT, socket);
        }
    }
}

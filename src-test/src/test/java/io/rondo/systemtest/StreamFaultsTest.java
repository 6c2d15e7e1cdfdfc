package io.rondo.systemtest;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Open;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stream clients that misbehave: one that stops reading, one that vanishes mid-stream, and bytes
 * that are not the protocol. Each is answered or cut off, never waited on forever, every buffer and
 * admission it held comes back, and well-behaved clients go on being served byte for byte.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StreamFaultsTest {

    private static final Duration QUIET = Duration.ofSeconds(10);

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 1024);
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    private static Open open() {
        return new Open(RondoUnderTest.CLIP.substring(1), 0, RondoUnderTest.PROFILE);
    }

    // A viewer whose player freezes (stops reading) for a few rounds costs the server no buffers once it leaves,
    // and another viewer watching meanwhile gets the whole clip, byte for byte.
    @Test
    @Order(1)
    void aClientThatStopsReadingGivesEverythingBackAndOthersAreServed() throws Exception {
        byte[] other;
        try (RawStreamConnection frozen = RawStreamConnection.connect(rondo.streamPort(), 4096)) {
            frozen.send(open());
            assertInstanceOf(Accept.class, frozen.next(), "the stream is admitted");
            long stalledFromNs = System.nanoTime();
            other = rondo.play();
            long roundsStalled = (System.nanoTime() - stalledFromNs) / rondo.disks.roundNs();
            assertTrue(roundsStalled >= 3, "the frozen client stalled " + roundsStalled + " rounds");
        }
        assertArrayEquals(rondo.clip, other, "the other viewer's stream is untouched by the frozen one");
        rondo.awaitQuiet(QUIET);
    }

    // A viewer who closes the player after the first picture releases its admission and every buffer.
    @Test
    @Order(2)
    void aClientThatVanishesMidStreamReleasesItsAdmissionAndBuffers() throws Exception {
        try (RawStreamConnection gone = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            gone.send(open());
            assertInstanceOf(Accept.class, gone.next());
            assertInstanceOf(Data.class, gone.next(), "the first fragment");
            assertEquals(1, rondo.streams.admission().admittedStreams());
            gone.reset();
        }
        rondo.awaitQuiet(QUIET);
    }

    private static byte[] hex(String bytes) {
        return HexFormat.ofDelimiter(" ").parseHex(bytes);
    }

    static Stream<Arguments> malformed() {
        byte[] open = FrameCodec.encode(open()).array();
        byte[] openWithTrailingByte = Arrays.copyOf(open, open.length + 1);
        openWithTrailingByte[7]++;
        byte[] data = FrameCodec.encode(new Data(0, 0, 0, 0, false, ByteBuffer.wrap(new byte[] {1, 2, 3}))).array();
        return Stream.of(
            Arguments.of("an HTTP request on the stream port",
                "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII), ErrorCode.MALFORMED_FRAME),
            Arguments.of("garbage bytes", hex("00 ff 13 37 00 00 00 00 de ad be ef"), ErrorCode.MALFORMED_FRAME),
            Arguments.of("a bad magic", hex("53 01 05 00 00 00 00 00"), ErrorCode.MALFORMED_FRAME),
            Arguments.of("version 2", hex("52 02 01 00 00 00 00 00"), ErrorCode.UNSUPPORTED_VERSION),
            Arguments.of("an unknown type", hex("52 01 09 00 00 00 00 00"), ErrorCode.UNKNOWN_FRAME_TYPE),
            Arguments.of("a reserved flag", hex("52 01 05 80 00 00 00 00"), ErrorCode.MALFORMED_FRAME),
            Arguments.of("a length past 16 MiB", hex("52 01 01 00 01 00 00 01"), ErrorCode.FRAME_TOO_LARGE),
            Arguments.of("a length of 4 GiB - 1", hex("52 01 83 00 ff ff ff ff"), ErrorCode.FRAME_TOO_LARGE),
            Arguments.of("an OPEN with a byte after its last field", openWithTrailingByte, ErrorCode.MALFORMED_FRAME),
            Arguments.of("a DATA frame from the client", data, ErrorCode.UNEXPECTED_FRAME),
            Arguments.of("a PAUSE before any OPEN", hex("52 01 02 00 00 00 00 00"), ErrorCode.UNEXPECTED_FRAME));
    }

    // A broken or hostile client is told what was wrong (the protocol's ERROR code) and disconnected, never left
    // hanging, and holds nothing afterwards.
    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Order(3)
    void aProtocolFaultIsAnsweredWithItsErrorAndTheConnectionCloses(String what, byte[] bytes, ErrorCode expected)
        throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(bytes);
            Frame answer = client.next();
            assertInstanceOf(ErrorFrame.class, answer, what + ": " + answer);
            assertEquals(expected.code(), ((ErrorFrame) answer).code(), what + ": " + answer);
            assertNull(client.next(), "after ERROR the server closes the connection");
        }
        rondo.awaitQuiet(QUIET);
    }

    // A client that dies inside a frame (half a header, then end of input) is disconnected, not waited on.
    @Test
    @Order(4)
    void aFrameTruncatedByTheClientClosingIsNotWaitedOn() throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(Arrays.copyOf(FrameCodec.encode(open()).array(), 5));
            client.shutdownOutput();
            Frame answer = client.next();
            assertTrue(answer == null || answer instanceof ErrorFrame, "closed, or an ERROR: " + answer);
            if (answer != null) {
                assertNull(client.next(), "then closed");
            }
        }
        rondo.awaitQuiet(QUIET);
    }

    // One connection carries one stream: a second OPEN is refused as unexpected and the stream ends cleanly.
    @Test
    @Order(5)
    void aSecondOpenOnOneConnectionIsAnUnexpectedFrame() throws Exception {
        try (RawStreamConnection client = RawStreamConnection.connect(rondo.streamPort(), 0)) {
            client.send(open());
            assertInstanceOf(Accept.class, client.next());
            client.send(open());
            Frame answer = client.next();
            while (answer instanceof Data) {
                answer = client.next();
            }
            assertInstanceOf(ErrorFrame.class, answer, "an ERROR, not " + answer);
            assertEquals(ErrorCode.UNEXPECTED_FRAME.code(), ((ErrorFrame) answer).code(), answer.toString());
            assertNull(client.next(), "after ERROR the server closes the connection");
        }
        rondo.awaitQuiet(QUIET);
    }

    // After all of the above, a well-behaved viewer still gets the whole clip, on time, byte for byte.
    @Test
    @Order(6)
    void aWellBehavedClientIsStillServedWholeAfterTheFaults() throws Exception {
        assertArrayEquals(rondo.clip, rondo.play());
        rondo.awaitQuiet(QUIET);
    }
}

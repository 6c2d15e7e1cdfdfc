package io.rondo.client.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FrameCodecTest {

    static List<Frame> samples() {
        return Frames.all();
    }

    @Test
    void samplesCoverEveryFrameType() {
        Set<FrameType> seen = samples().stream().map(Frame::type).collect(Collectors.toSet());
        assertEquals(EnumSet.allOf(FrameType.class), seen);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void everyFrameRoundTrips(Frame frame) throws ProtocolException {
        ByteBuffer bytes = FrameCodec.encode(frame);
        assertEquals(FrameCodec.encodedLength(frame), bytes.remaining());
        assertEquals(frame, FrameCodec.decode(bytes));
        assertEquals(0, bytes.position(), "decode must not move the caller's buffer");
    }

    @ParameterizedTest
    @MethodSource("samples")
    void encodesIntoCallersBufferAtItsPositionWhateverItsByteOrder(Frame frame) throws ProtocolException {
        int length = FrameCodec.encodedLength(frame);
        ByteBuffer pooled = ByteBuffer.allocateDirect(length + 10).order(ByteOrder.LITTLE_ENDIAN);
        pooled.position(3);
        FrameCodec.encode(frame, pooled);
        assertEquals(3 + length, pooled.position());
        assertEquals(ByteOrder.LITTLE_ENDIAN, pooled.order());
        pooled.flip().position(3);
        assertEquals(FrameCodec.encode(frame), pooled);
        assertEquals(frame, FrameCodec.decode(pooled));
    }

    @Test
    void refusesABufferTooSmallWithoutWritingToIt() {
        Frame frame = new Seek(1);
        ByteBuffer small = ByteBuffer.allocate(FrameCodec.encodedLength(frame) - 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FrameCodec.encode(frame, small));
        assertTrue(e.getMessage().contains("SEEK frame needs 16 bytes"), e.getMessage());
        assertEquals(0, small.position());
    }

    @Test
    void dataPrefixThenFragmentBytesIsTheWholeFrame() {
        Data data = new Data(9, 10, 11, 12, true, Frames.bytes(500, 7));
        ByteBuffer out = ByteBuffer.allocate(FrameCodec.encodedLength(data));
        FrameCodec.encodeDataPrefix(data, out);
        assertEquals(FrameCodec.DATA_PREFIX_LENGTH, out.position());
        out.put(data.payload());
        assertEquals(FrameCodec.encode(data), out.flip());
    }

    @Test
    void dataPayloadIsASliceOfTheDecodedBytesNotACopy() throws ProtocolException {
        byte[] wire = FrameCodec.encode(new Data(0, 0, 0, 0, false, Frames.bytes(16, 0))).array();
        Data data = (Data) FrameCodec.decode(ByteBuffer.wrap(wire));
        wire[FrameCodec.DATA_PREFIX_LENGTH] = 99;
        assertEquals(99, data.payload().get(0));
        assertTrue(data.payload().isReadOnly());
    }

    @Test
    void readingAPayloadDoesNotChangeTheFrame() {
        Data data = new Data(0, 0, 0, 0, false, Frames.bytes(16, 0));
        data.payload().position(16);
        assertEquals(16, data.payload().remaining());
        Accept accept = new Accept(1, 1, 1, "c", Frames.bytes(4, 0));
        accept.initSegment().get();
        assertEquals(4, accept.initSegment().remaining());
    }

    @Test
    void aWebSocketMessageHoldsExactlyOneFrame() {
        ByteBuffer two = ByteBuffer.wrap(Frames.concat(List.of(new Pause(), new Resume())));
        ProtocolException extra = assertThrows(ProtocolException.class, () -> FrameCodec.decode(two));
        assertEquals(ErrorCode.MALFORMED_FRAME, extra.code());
        assertTrue(extra.getMessage().contains("8 bytes follow the PAUSE frame"), extra.getMessage());

        ByteBuffer half = ByteBuffer.wrap(FrameCodec.encode(new Seek(5)).array(), 0, 12);
        assertEquals(ErrorCode.TRUNCATED_FRAME,
                assertThrows(ProtocolException.class, () -> FrameCodec.decode(half)).code());
        assertEquals(ErrorCode.TRUNCATED_FRAME,
                assertThrows(ProtocolException.class, () -> FrameCodec.decode(ByteBuffer.allocate(0))).code());
    }

    @Test
    void framesRefuseValuesTheWireCannotCarry() {
        ClientProfile ok = new ClientProfile(1, 1);
        assertThrows(IllegalArgumentException.class, () -> new Open("", 0, ok));
        assertThrows(IllegalArgumentException.class, () -> new Open("a", -1, ok));
        assertThrows(IllegalArgumentException.class, () -> new Open("x".repeat(65_536), 0, ok));
        assertThrows(IllegalArgumentException.class, () -> new Open("bad \ud800 surrogate", 0, ok));
        assertThrows(IllegalArgumentException.class, () -> new ClientProfile(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Seek(-1));
        assertThrows(IllegalArgumentException.class, () -> new Report(0, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new Reject(RejectReason.NETWORK, -1, ""));
        assertThrows(IllegalArgumentException.class, () -> new ErrorFrame(0x10000, ""));
        assertThrows(IllegalArgumentException.class,
                () -> new Data(0, 0, 0, 0, false, ByteBuffer.allocate(Data.MAX_FRAGMENT_BYTES + 1)));
        assertThrows(IllegalArgumentException.class,
                () -> new Accept(0, 1, 0, "", ByteBuffer.allocate(FrameCodec.MAX_PAYLOAD_LENGTH)));
    }

    @Test
    void aFragmentOfTheMaximumSizeRoundTrips() throws ProtocolException {
        Data data = new Data(1, 2, 3, 4, false, ByteBuffer.allocate(Data.MAX_FRAGMENT_BYTES));
        ByteBuffer wire = FrameCodec.encode(data);
        assertEquals(FrameCodec.HEADER_LENGTH + FrameCodec.MAX_PAYLOAD_LENGTH, wire.remaining());
        assertEquals(data, FrameCodec.decode(wire));
    }

    @Test
    void aProtocolFaultBecomesTheErrorFrameToSend() {
        ProtocolException e = new ProtocolException(ErrorCode.FRAME_TOO_LARGE, "é".repeat(40_000));
        ErrorFrame error = e.toErrorFrame();
        assertEquals(0x0004, error.code());
        assertEquals(ErrorCode.FRAME_TOO_LARGE, error.errorCode());
        assertTrue(FrameCodec.encodedLength(error) <= 4 + 2 + 65_535 + FrameCodec.HEADER_LENGTH);
        assertFalse(error.message().isEmpty());
    }

    @Test
    void typeBytesSayWhichWayAFrameTravels() {
        for (FrameType t : FrameType.values()) {
            assertEquals(t, FrameType.ofCode(t.code()));
            assertEquals(t.code() < 0x80, t.fromClient());
        }
        assertNull(FrameType.ofCode(0));
        assertNull(FrameType.ofCode(0x09));
        assertNull(FrameType.ofCode(0x89));
    }
}

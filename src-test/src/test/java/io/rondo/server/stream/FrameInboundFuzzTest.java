package io.rondo.server.stream;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.server.config.StreamSettings;
import io.rondo.systemtest.SplitInput;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Fuzzes the server's side of the stream protocol's framing: {@link FrameInboundDecoder} in a Netty
 * pipeline, fed a client's bytes as TCP might split them ({@link SplitInput}). What must hold: the pipeline passes on
 * the frames the protocol's own decoder finds in the whole byte stream, in order, and then the same
 * fault, as a {@link ProtocolException} the session can answer with ERROR (the frames read in the
 * same piece as the fault are not passed on: the session ends on the fault); and every buffer the
 * socket read is released.
 */
class FrameInboundFuzzTest {

    /** The server's default limit for a client frame, header included ({@code streams.maxClientFrame}). */
    private static final int MAX_FRAME = StreamSettings.DEFAULT_MAX_CLIENT_FRAME;

    // However a client's bytes arrive, the server sees the frames in them, or the fault that ends them.
    @FuzzTest(maxDuration = "20s")
    void decode(byte[] input) {
        if (input.length == 0) {
            return;
        }
        SplitInput split = SplitInput.of(input);
        byte[] wire = split.wire();

        List<Frame> expected = new ArrayList<>();
        ErrorCode expectedFault = null;
        try {
            FrameDecoder decoder = new FrameDecoder(MAX_FRAME - FrameCodec.HEADER_LENGTH);
            ByteBuffer whole = ByteBuffer.wrap(wire);
            for (Frame frame = decoder.next(whole); frame != null; frame = decoder.next(whole)) {
                expected.add(frame);
            }
        } catch (ProtocolException e) {
            expectedFault = e.code();
        }

        EmbeddedChannel channel = new EmbeddedChannel(new FrameInboundDecoder(MAX_FRAME));
        List<ByteBuf> read = new ArrayList<>();
        List<Frame> frames = new ArrayList<>();
        ErrorCode fault = null;
        for (byte[] bytes : split.pieces()) {
            ByteBuf piece = Unpooled.wrappedBuffer(bytes);
            read.add(piece);
            try {
                channel.writeInbound(piece);
            } catch (DecoderException e) {
                fault = assertInstanceOf(ProtocolException.class, e.getCause(), "a fault is the protocol's").code();
            }
            for (Object frame = channel.readInbound(); frame != null; frame = channel.readInbound()) {
                frames.add((Frame) frame);
            }
            if (fault != null) {
                break;
            }
        }
        channel.finishAndReleaseAll();

        assertEquals(expectedFault, fault, "the fault in the bytes, however they were split");
        if (fault == null) {
            assertEquals(expected, frames, "and the frames");
        } else {
            assertEquals(expected.subList(0, Math.min(frames.size(), expected.size())), frames,
                "and the frames before it, but for those read together with the fault");
        }
        for (ByteBuf piece : read) {
            assertEquals(0, piece.refCnt(), "every buffer read from the socket is released");
        }
    }
}

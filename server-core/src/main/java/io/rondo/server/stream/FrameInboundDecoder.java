package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Media;
import io.rondo.client.protocol.ProtocolException;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Turns the bytes a client sends into frames with the protocol's own incremental decoder, which
 * holds at most one frame's bytes and refuses, at its header, a frame longer than
 * {@code streams.maxClientFrame}. Every read is handed to it in place and consumed whole, so
 * nothing accumulates here either: a connection costs at most one client frame of memory,
 * whatever it declares. A malformed frame is a {@link ProtocolException} for the session to
 * answer with ERROR; after one, what else arrives is dropped unread.
 */
final class FrameInboundDecoder extends ByteToMessageDecoder {

    private final FrameDecoder decoder;
    private boolean failed;

    /** @param maxFrameBytes the largest client frame, header included */
    FrameInboundDecoder(int maxFrameBytes) {
        this.decoder = new FrameDecoder(maxFrameBytes - FrameCodec.HEADER_LENGTH);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws ProtocolException {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        ByteBuffer chunk = in.nioBuffer();
        try {
            for (Frame frame : decoder.feed(chunk)) {
                out.add(frame instanceof Media media ? own(media) : frame);
            }
        } catch (ProtocolException e) {
            failed = true;
            throw e;
        } finally {
            in.skipBytes(in.readableBytes());
        }
    }

    /**
     * A MEDIA frame with bytes of its own: one decoded in place is a slice of Netty's read buffer,
     * which is released, and reused by other connections' reads, before the last frames decoded
     * from it reach the session.
     */
    private static Media own(Media media) {
        ByteBuffer bytes = media.payload();
        ByteBuffer copy = ByteBuffer.allocate(bytes.remaining());
        copy.put(bytes).flip();
        return new Media(copy);
    }
}

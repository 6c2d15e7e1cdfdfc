package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.ProtocolException;

import java.util.List;

/**
 * Turns the bytes a client sends into frames with the protocol's own incremental decoder, which
 * holds at most one frame's bytes. A malformed frame is a {@link ProtocolException} for the
 * session to answer with ERROR.
 */
final class FrameInboundDecoder extends ByteToMessageDecoder {

    private final FrameDecoder decoder = new FrameDecoder();

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws ProtocolException {
        byte[] bytes = new byte[in.readableBytes()];
        in.readBytes(bytes);
        out.addAll(decoder.feed(java.nio.ByteBuffer.wrap(bytes)));
    }
}

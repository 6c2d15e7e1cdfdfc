package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rondo.client.protocol.FrameCodec;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The WebSocket binding of the stream protocol (docs/stream-protocol.md): one protocol frame per
 * binary WebSocket message, the same bytes as over TCP. Inbound messages become frames for a
 * {@link StreamSession}; the session's outbound frames (plain buffers) become binary messages.
 */
public final class WebSocketFrames extends MessageToMessageCodec<BinaryWebSocketFrame, ByteBuf> {

    /** The largest WebSocket message a stream frame can take: header plus the largest payload. */
    public static final int MAX_MESSAGE = FrameCodec.HEADER_LENGTH + FrameCodec.MAX_PAYLOAD_LENGTH;

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        out.add(new BinaryWebSocketFrame(frame.retain()));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, BinaryWebSocketFrame message, List<Object> out)
        throws io.rondo.client.protocol.ProtocolException {
        ByteBuf content = message.content();
        byte[] bytes = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), bytes);
        out.add(FrameCodec.decode(ByteBuffer.wrap(bytes)));
    }
}

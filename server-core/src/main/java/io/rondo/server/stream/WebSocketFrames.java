package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.MessageToMessageCodec;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.ProtocolException;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The WebSocket binding of the stream protocol (docs/stream-protocol.md): one protocol frame per
 * binary WebSocket message, the same bytes as over TCP. Inbound messages (a fragmented one already
 * gathered, up to {@code streams.maxClientFrame}) become frames for a {@link StreamSession}; the
 * session's outbound frames (plain buffers) become binary messages.
 *
 * <p>What the protocol forbids the binding turns into the protocol's own errors, so the session
 * answers them with ERROR as it does on TCP: a text message is a {@code MALFORMED_FRAME}, a
 * message longer than the limit a {@code FRAME_TOO_LARGE}.
 */
public final class WebSocketFrames extends MessageToMessageCodec<WebSocketFrame, ByteBuf> {

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        out.add(new BinaryWebSocketFrame(frame.retain()));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, WebSocketFrame message, List<Object> out)
        throws ProtocolException {
        if (!(message instanceof BinaryWebSocketFrame)) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "a " + message.getClass().getSimpleName()
                .replace("WebSocketFrame", "").toLowerCase(java.util.Locale.ROOT) + " WebSocket message: every "
                + "stream frame is one binary message");
        }
        ByteBuf content = message.content();
        byte[] bytes = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), bytes);
        out.add(FrameCodec.decode(ByteBuffer.wrap(bytes)));
    }

    /** A message past the limit, from the WebSocket decoder or the aggregator, is the protocol's FRAME_TOO_LARGE. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof TooLongFrameException
            || cause instanceof CorruptedWebSocketFrameException corrupt
            && corrupt.closeStatus().code() == WebSocketCloseStatus.MESSAGE_TOO_BIG.code()) {
            ctx.fireExceptionCaught(new DecoderException(new ProtocolException(ErrorCode.FRAME_TOO_LARGE,
                "a WebSocket message longer than the largest client frame (streams.maxClientFrame): "
                    + cause.getMessage())));
        } else if (cause instanceof CorruptedWebSocketFrameException) {
            ctx.fireExceptionCaught(new DecoderException(new ProtocolException(ErrorCode.MALFORMED_FRAME,
                "a broken WebSocket frame: " + cause.getMessage())));
        } else {
            super.exceptionCaught(ctx, cause);
        }
    }
}

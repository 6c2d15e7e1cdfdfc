package io.rondo.server.stream;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
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

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The stream protocol's publish direction (docs/stream-protocol.md): a connection whose first frame
 * is PUBLISH carries one {@link Publication}. PUBLISH is answered with ACCEPT or REJECT; MEDIA
 * frames are its bytes; DURABLE goes once a round; CLOSE finishes it with a last DURABLE and END.
 * A publisher that sends no frame for {@code streams.clientTimeout}, or leaves, ends the
 * recording with what it sent. Event loop only.
 */
final class PublishSession extends SimpleChannelInboundHandler<Frame> implements Publication.Events {

    private final SessionServices services;
    private ChannelHandlerContext ctx;
    private DeadlineWatch deadline;
    private Publication publication;
    private boolean errorSent;
    private boolean closing;

    PublishSession(SessionServices services) {
        this.services = services;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        deadline = new DeadlineWatch(services.settings(), services.clock(), ctx.executor(),
            why -> fail(ErrorCode.CLIENT_TIMEOUT, why));
        deadline.opening();
    }

    /** The PUBLISH that made this connection a publisher's. */
    void publish(Publish frame) {
        publication = new Publication(services, ctx.executor(), ClientAddress.of(ctx.channel().remoteAddress()), this);
        publication.start(frame);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, Frame frame) {
        if (closing || errorSent || publication.ending()) {
            return;
        }
        deadline.heard();
        if (frame instanceof Media media && publication.accepted()) {
            publication.media(media.payload());
        } else if (frame instanceof Close && publication.accepted()) {
            publication.finish();
        } else {
            fail(ErrorCode.UNEXPECTED_FRAME, publication.accepted() ? "a publisher sends MEDIA and CLOSE only"
                : "wait for ACCEPT before sending " + frame.type());
        }
    }

    private void fail(ErrorCode code, String why) {
        if (closing) {
            return;
        }
        errorSent = true;
        write(new ErrorFrame(code.code(), why));
        publication.fail(code, why);
    }

    @Override
    public void accepted(long streamId, long roundNs, long peakBitsPerSecond) {
        deadline.accepted(services.clock().nanoTime());
        write(new Accept(streamId, roundNs, peakBitsPerSecond, "", ByteBuffer.allocate(0)));
    }

    @Override
    public void refused(RejectReason reason, int retryAfterSeconds, String message) {
        write(new Reject(reason, retryAfterSeconds, message));
        close();
    }

    @Override
    public void durable(long fragments, long durableNs, long bytesReceived) {
        write(new Durable(fragments, durableNs, bytesReceived));
    }

    @Override
    public void ended(ErrorCode code, String why, long fragments, long durableNs, long bytesReceived) {
        if (code != null && !errorSent) {
            errorSent = true;
            write(new ErrorFrame(code.code(), why));
        }
        if (fragments > 0) {
            write(new Durable(fragments, durableNs, bytesReceived));
        }
        if (!errorSent) {
            write(new End());
        }
        close();
    }

    private void close() {
        closing = true;
        deadline.stop();
        ctx.channel().eventLoop().schedule(() -> ctx.close(), 100, TimeUnit.MILLISECONDS);
    }

    private void write(Frame frame) {
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(FrameCodec.encode(frame)))
                .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        if (!closing && publication != null) {
            publication.left();
        }
        super.channelInactive(context);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() instanceof ProtocolException protocol) {
            fail(protocol.code(), protocol.getMessage());
        } else {
            fail(ErrorCode.INTERNAL_ERROR, String.valueOf(cause.getMessage()));
        }
    }
}

package io.rondo.server.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.TimeUnit;

/**
 * How a connection ends after its last answer: the output is shut (the client reads the answer,
 * then the end of the stream), and what the client still sends, the rest of a refused body, say,
 * is read and dropped until it closes its side or {@link #LINGER_MS} pass. Closing a socket with
 * unread bytes makes the kernel reset it, and a reset can reach the client before the answer it
 * follows (a 413 lost to the body the client was still sending). The dropping stands first in the
 * pipeline, so no request after the last answer is decoded.
 */
final class LingeringClose extends ChannelInboundHandlerAdapter {

    /** The most a closing connection waits for its client to close its side. */
    static final long LINGER_MS = 2_000;

    /** Closes the written message's connection, lingering, once the message is written. */
    static final ChannelFutureListener AFTER_WRITE = future -> close(future.channel());

    private LingeringClose() {
    }

    /** Ends {@code channel}: its output at once, the connection once the client closes or the linger ends. */
    static void close(Channel channel) {
        if (!(channel instanceof DuplexChannel duplex) || !channel.isActive() || duplex.isOutputShutdown()) {
            if (!(channel instanceof DuplexChannel)) {
                channel.close();
            }
            return;
        }
        channel.pipeline().addFirst(new LingeringClose());
        duplex.shutdownOutput().addListener(shut -> {
            if (!shut.isSuccess()) {
                channel.close();
            }
        });
        channel.config().setAutoRead(true);
        channel.eventLoop().schedule(() -> {
            channel.close();
        }, LINGER_MS, TimeUnit.MILLISECONDS);
    }

    /** Whether {@code channel} is ending: its output shut, what it reads dropped. */
    static boolean closing(Channel channel) {
        return channel instanceof DuplexChannel duplex && duplex.isOutputShutdown();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof ChannelInputShutdownEvent) {
            ctx.close();
        }
    }
}

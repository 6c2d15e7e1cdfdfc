package io.rondo.server.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

import java.util.concurrent.TimeUnit;

/**
 * An {@link ApiReply} onto the connection: a reply of known length with its Content-Length (and
 * the connection ended after it unless kept alive), or an event stream's head, after which the
 * reply's {@link ApiReply.EventSource} takes the connection.
 */
final class ReplyWriter {

    /** How long a connection being closed reads and drops what its client still sends. */
    static final long LINGER_MS = 2_000;

    private ReplyWriter() {
    }

    /** Writes the head of an event stream and hands the connection to its source. */
    static void startEventStream(ChannelHandlerContext ctx, ApiReply reply) {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        reply.headers().forEach((name, value) -> head.headers().set(name, value));
        ctx.writeAndFlush(head);
        reply.events().attach(ctx.channel());
    }

    /**
     * Writes a reply of known length; unless {@code keepAlive}, says {@code Connection: close} and
     * ends the connection once it is written ({@link #closeAfterAnswer}), having run {@code closing}.
     */
    static void write(ChannelHandlerContext ctx, ApiReply reply, boolean keepAlive, Runnable closing) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(reply.status()), Unpooled.wrappedBuffer(reply.body()));
        if (reply.contentType() != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        }
        reply.headers().forEach((name, value) -> response.headers().set(name, value));
        if (reply.status() != HttpResponseStatus.NOT_MODIFIED.code()) {
            HttpUtil.setContentLength(response, reply.body().length);
        }
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(written -> {
                closing.run();
                closeAfterAnswer(ctx);
            });
        } else {
            ctx.writeAndFlush(response);
        }
    }

    /**
     * Ends a connection once its last answer is written. The output is shut at once, but what the
     * client still sends (the rest of a refused body) is read and dropped for a moment before the
     * connection closes: closing a socket with unread bytes makes the kernel reset it, and a client
     * still sending its body would lose the answer (a 413, say) to the reset.
     */
    private static void closeAfterAnswer(ChannelHandlerContext ctx) {
        if (ctx.channel() instanceof DuplexChannel duplex && duplex.isActive()) {
            duplex.shutdownOutput();
            ctx.channel().config().setAutoRead(true);
            ctx.executor().schedule(() -> {
                ctx.close();
            }, LINGER_MS, TimeUnit.MILLISECONDS);
        } else {
            ctx.close();
        }
    }
}

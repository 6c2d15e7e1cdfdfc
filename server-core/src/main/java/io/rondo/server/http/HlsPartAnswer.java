package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.rondo.server.stream.HlsDelivery;

/**
 * The answer to a part or segment GET of an HLS session: 206 with the range, its body the fragments
 * the session's reads hold, written as each comes. The session calls from its own event loop; every
 * call is carried over to the connection's. A session that cannot give the bytes before the head is
 * written gets 503 with Retry-After (asking again opens the way for the plain ranged GET); one that
 * fails after closes the connection, as a failed read of a body does.
 */
final class HlsPartAnswer implements HlsDelivery, Pending {

    private final ChannelHandlerContext ctx;
    private final String contentType;
    private final boolean keepAlive;
    private final Runnable done;
    private boolean begun;
    private boolean over;

    HlsPartAnswer(ChannelHandlerContext ctx, String contentType, boolean keepAlive, Runnable done) {
        this.ctx = ctx;
        this.contentType = contentType;
        this.keepAlive = keepAlive;
        this.done = done;
    }

    @Override
    public void begin(long offset, long length, long total) {
        ctx.executor().execute(() -> {
            if (over) {
                return;
            }
            begun = true;
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.PARTIAL_CONTENT);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
            head.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes " + offset + "-" + (offset + length - 1) + "/"
                + (total < 0 ? "*" : Long.toString(total)));
            head.headers().set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES);
            head.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
            HttpUtil.setContentLength(head, length);
            HttpUtil.setKeepAlive(head, keepAlive);
            ctx.write(head);
        });
    }

    @Override
    public void piece(ByteBuf data, Runnable written) {
        ctx.executor().execute(() -> {
            if (over || !ctx.channel().isActive()) {
                data.release();
                written.run();
                return;
            }
            ctx.writeAndFlush(new DefaultHttpContent(data)).addListener(future -> written.run());
        });
    }

    @Override
    public void end() {
        ctx.executor().execute(() -> {
            if (!over) {
                over = true;
                HttpResponses.end(ctx, keepAlive);
                done.run();
            }
        });
    }

    @Override
    public void failed(String why) {
        ctx.executor().execute(() -> {
            if (over) {
                return;
            }
            over = true;
            if (begun) {
                ctx.close();
                return;
            }
            FullHttpResponse busy = HttpResponses.text(HttpResponseStatus.SERVICE_UNAVAILABLE, why + "; ask again");
            busy.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
            HttpUtil.setKeepAlive(busy, keepAlive);
            HttpResponses.end(ctx, busy, keepAlive);
            done.run();
        });
    }

    @Override
    public void pump() {
        // The session writes each fragment as it is read; the channel's writability does not hold it back.
    }

    @Override
    public void abandon() {
        over = true;
    }
}

package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * A deadline for each request to arrive whole ({@code http.headerTimeout}): from its first byte to
 * the end of its message (line, headers, and any body). A client that sends its request a byte at
 * a time, each within the idle timeout, would otherwise hold the connection for as long as it
 * liked (slowloris). The wait for a request's first byte is the idle timeout's, not this. The
 * codec keeps to itself what it holds, so a pipelined request whose first bytes came in the same
 * read as the end of the request before is timed from the next read that brings more of it.
 *
 * <p>It stands in two places: before the codec, where it sees the first byte of a request arrive,
 * and after it ({@link #afterCodec()}), where it sees the request end and the answers go out. A
 * request that misses its deadline is answered 408 and the connection closed; if an earlier
 * pipelined request is still being answered, a 408 cannot be put before that answer's end, and the
 * connection is closed with no word. Once an answer switches protocols (the WebSocket upgrade),
 * the connection is no longer HTTP and both halves leave the pipeline.
 *
 * <p>One timer a connection at most, armed at a request's first byte and, when it fires, armed
 * again for the deadline of the request arriving then, if any: back-to-back requests cost a clock
 * read each, not a timer each. Time is the event loop's ({@code ticker()}), so a test on an
 * embedded channel moves it by hand.
 */
public final class HeaderTimeoutHandler extends ChannelInboundHandlerAdapter {

    private final long timeoutNs;
    private final boolean headOnly;
    private final RequestEnd end = new RequestEnd();
    private ChannelHandlerContext ctx;
    /** Whether a request has begun to arrive and not yet ended. */
    private boolean arriving;
    private long startedNs;
    /** Requests decoded whose answers are not yet written to their end. */
    private int unanswered;
    private ScheduledFuture<?> timer;

    /** A deadline of {@code timeoutMs} for each request to arrive whole. */
    public HeaderTimeoutHandler(long timeoutMs) {
        this(timeoutMs, false);
    }

    /**
     * A deadline of {@code timeoutMs} for each request's head to arrive, and its body too unless
     * {@code headOnly}: a port that takes uploads of any size (the admin port) times the head
     * alone, and leaves a slow body to its idle timeout.
     */
    public HeaderTimeoutHandler(long timeoutMs, boolean headOnly) {
        this.timeoutNs = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.headOnly = headOnly;
    }

    /** The half that stands after the codec: it sees requests end and answers go out. */
    public ChannelHandler afterCodec() {
        return end;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!arriving && msg instanceof ByteBuf bytes && bytes.forEachByte(ByteProcessor.FIND_NON_CRLF) >= 0) {
            arriving = true;
            startedNs = ctx.executor().ticker().nanoTime();
            if (timer == null) {
                timer = ctx.executor().schedule(this::expired, timeoutNs, TimeUnit.NANOSECONDS);
            }
        }
        ctx.fireChannelRead(msg);
    }

    private void expired() {
        timer = null;
        if (!arriving || !ctx.channel().isActive() || LingeringClose.closing(ctx.channel())) {
            return;
        }
        long leftNs = startedNs + timeoutNs - ctx.executor().ticker().nanoTime();
        if (leftNs > 0) {
            timer = ctx.executor().schedule(this::expired, leftNs, TimeUnit.NANOSECONDS);
            return;
        }
        arriving = false;
        if (unanswered > 0 || end.ctx == null) {
            ctx.close();
            return;
        }
        FullHttpResponse timeout = HttpResponses.text(HttpResponseStatus.REQUEST_TIMEOUT,
            "the request did not arrive whole in time");
        HttpUtil.setKeepAlive(timeout, false);
        end.ctx.writeAndFlush(timeout).addListener(LingeringClose.AFTER_WRITE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        handlerRemoved(ctx);
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** After the codec: a request's end stops its deadline; answers written to their end are counted. */
    private final class RequestEnd extends ChannelDuplexHandler {

        private ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                unanswered++;
            }
            if (msg instanceof LastHttpContent || headOnly && msg instanceof HttpRequest) {
                arriving = false;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            boolean interim = msg instanceof HttpResponse response
                && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
            if (msg instanceof LastHttpContent && !interim) {
                unanswered--;
            }
            ctx.write(msg, promise);
            if (interim && ((HttpResponse) msg).status().equals(HttpResponseStatus.SWITCHING_PROTOCOLS)) {
                ctx.pipeline().remove(HeaderTimeoutHandler.this);
                ctx.pipeline().remove(this);
            }
        }
    }
}

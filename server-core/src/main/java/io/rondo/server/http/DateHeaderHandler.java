package io.rondo.server.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;

import java.time.Clock;
import java.time.Instant;

/**
 * Puts the {@code Date} header on every response a port sends (RFC 9110 Section 6.6.1: an origin
 * server with a clock sends it), so that a cache can tell the age of what it keeps and weigh a
 * {@code Last-Modified} against it. The time is the injected clock's, formatted once a second: one
 * entry, replaced whole, so a race only formats a second twice. One handler serves every connection
 * of a port; it stands between the codec and whatever writes answers.
 */
@ChannelHandler.Sharable
public final class DateHeaderHandler extends ChannelOutboundHandlerAdapter {

    private record Second(long epochSecond, String text) {
    }

    private final Clock clock;
    private volatile Second last = new Second(Long.MIN_VALUE, "");

    /** Dates the responses by {@code clock}. */
    public DateHeaderHandler(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response && !response.headers().contains(HttpHeaderNames.DATE)) {
            response.headers().set(HttpHeaderNames.DATE, now());
        }
        ctx.write(msg, promise);
    }

    /** The clock's time now as an IMF-fixdate. */
    public String now() {
        long epochSecond = Math.floorDiv(clock.millis(), 1000L);
        Second second = last;
        if (second.epochSecond() != epochSecond) {
            second = new Second(epochSecond, HttpDates.IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond)));
            last = second;
        }
        return second.text();
    }
}

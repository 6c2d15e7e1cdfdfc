package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.rondo.server.hls.Playlists;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.rondo.server.observe.RondoMetrics;

import org.agrona.concurrent.NanoClock;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Times every request on the HTTP port, from its head arriving to its response's last byte
 * written out, by route ({@code object}, {@code folder}, {@code player-info}, {@code stream},
 * {@code hls-playlist}, {@code hls-part}),
 * method and status class, and counts the bytes sent. Sits right after the HTTP codec, so it sees
 * each pipelined request and each response as the wire has them; owned by the channel's event loop.
 */
final class HttpMetricsHandler extends ChannelDuplexHandler {

    private record Started(String route, String method, long startNs) {
    }

    private final RondoMetrics metrics;
    private final Counter sent;
    private final NanoClock clock;
    private final ArrayDeque<Started> started = new ArrayDeque<>();
    private int status;
    /** The timer last recorded in, and what it times: a keep-alive connection asks the same again and again. */
    private Timer timer;
    private String timerRoute;
    private String timerMethod;
    private int timerStatusClass;

    HttpMetricsHandler(RondoMetrics metrics, Counter sent, NanoClock clock) {
        this.metrics = metrics;
        this.sent = sent;
        this.clock = clock;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            started.add(new Started(route(request.uri()), request.method().name(), clock.nanoTime()));
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpResponse response) {
            status = response.status().code();
        }
        long bytes = msg instanceof ByteBufHolder holder ? holder.content().readableBytes()
            : msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
        if (bytes > 0) {
            sent.increment(bytes);
        }
        if (msg instanceof LastHttpContent || status == HttpResponseStatus.SWITCHING_PROTOCOLS.code()
            && msg instanceof HttpResponse) {
            Started request = started.poll();
            if (request != null) {
                timer(request.route(), request.method(), status).record(clock.nanoTime() - request.startNs(),
                    TimeUnit.NANOSECONDS);
            }
        }
        super.write(ctx, msg, promise);
    }

    private Timer timer(String route, String method, int status) {
        if (timer == null || !route.equals(timerRoute) || !method.equals(timerMethod)
            || status / 100 != timerStatusClass) {
            timer = metrics.httpTimer("http", route, method, status);
            timerRoute = route;
            timerMethod = method;
            timerStatusClass = status / 100;
        }
        return timer;
    }

    /** The route label of a request target: never the path itself, which would make a series per object. */
    static String route(String uri) {
        int end = uri.indexOf('?');
        if (end < 0) {
            end = uri.length();
        }
        if (HttpInitializer.streamObject(uri.substring(0, end)) != null) {
            return "stream";
        }
        if (uri.startsWith("/player/info/")) {
            return "player-info";
        }
        if (uri.substring(0, end).endsWith(HlsRoutes.PLAYLIST_SUFFIX)) {
            return "hls-playlist";
        }
        if (end < uri.length() && uri.indexOf(Playlists.SESSION + "=", end) > 0) {
            return "hls-part";
        }
        return end > 0 && uri.charAt(end - 1) == '/' ? "folder" : "object";
    }
}

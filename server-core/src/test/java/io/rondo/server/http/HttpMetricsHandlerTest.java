package io.rondo.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.observe.RondoMetrics;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The HTTP port's request metrics: by route and status class, never by path, with the bytes sent. */
class HttpMetricsHandlerTest {

    @Test
    void eachRequestIsTimedByItsRouteAndStatusClassAndItsBytesCounted() {
        RondoMetrics metrics = new RondoMetrics();
        EmbeddedChannel channel = new EmbeddedChannel(new HttpMetricsHandler(metrics, metrics.httpSentBytes(),
            SystemClocks.nanoClock()));
        channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/videos/a.mp4?x=1"));
        channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/videos/"));
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.PARTIAL_CONTENT,
            Unpooled.wrappedBuffer(new byte[100])));
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND,
            Unpooled.wrappedBuffer(new byte[20])));

        assertEquals(1, metrics.registry().get("rondo.http.requests").tags("port", "http", "route", "object",
            "method", "GET", "status", "2xx").timer().count());
        assertEquals(1, metrics.registry().get("rondo.http.requests").tags("route", "folder", "status", "4xx")
            .timer().count());
        assertEquals(120, metrics.registry().get("rondo.http.sent").counter().count());
        channel.finishAndReleaseAll();
    }

    @Test
    void routesNameTheKindOfRequestNotThePath() {
        assertEquals("stream", HttpMetricsHandler.route("/stream"));
        assertEquals("object", HttpMetricsHandler.route("/streams"));
        assertEquals("stream", HttpMetricsHandler.route("/stream/videos/a%20b.webm"), "the binding naming its object");
        assertEquals("player-info", HttpMetricsHandler.route("/player/info/videos/a.webm"));
        assertEquals("folder", HttpMetricsHandler.route("/?sort=name"));
        assertEquals("object", HttpMetricsHandler.route("/a.txt?download"));
    }
}

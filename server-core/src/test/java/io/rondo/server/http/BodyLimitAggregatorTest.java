package io.rondo.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpServerCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Requests come out of the codec whole: a bodiless one without a buffer of its own, one with a body with it. */
class BodyLimitAggregatorTest {

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(new HttpServerCodec(), new BodyLimitAggregator(1024));
    }

    private static void send(EmbeddedChannel channel, String bytes) {
        channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.US_ASCII));
    }

    @Test
    void pipelinedGetsComeOutWholeInOrderWithoutAnAggregationBuffer() {
        EmbeddedChannel channel = channel();
        send(channel, "GET /a.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n"
            + "HEAD /b.bin HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");

        FullHttpRequest first = channel.readInbound();
        FullHttpRequest second = channel.readInbound();
        assertNull(channel.readInbound());
        assertEquals(HttpMethod.GET, first.method());
        assertEquals("/a.bin", first.uri());
        assertEquals("bytes=0-9", first.headers().get(HttpHeaderNames.RANGE));
        assertEquals("0", first.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        assertTrue(first.decoderResult().isSuccess());
        assertSame(Unpooled.EMPTY_BUFFER, first.content(), "a bodiless request carries no buffer of its own");
        assertEquals(HttpMethod.HEAD, second.method());
        assertEquals("/b.bin", second.uri());
        assertSame(Unpooled.EMPTY_BUFFER, second.content());
        first.release();
        second.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aRequestWithABodyIsAggregatedWithIt() {
        EmbeddedChannel channel = channel();
        send(channel, "PUT /a.bin HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            + "GET /b.bin HTTP/1.1\r\nHost: x\r\n\r\n");

        FullHttpRequest put = channel.readInbound();
        FullHttpRequest get = channel.readInbound();
        assertEquals("hello", put.content().toString(StandardCharsets.US_ASCII));
        assertEquals("5", put.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        assertEquals("/b.bin", get.uri());
        assertEquals(0, get.content().readableBytes());
        put.release();
        get.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aChunkedBodyIsAggregatedAndOneTooLargeRefused() {
        EmbeddedChannel channel = channel();
        send(channel, "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n");

        FullHttpRequest chunked = channel.readInbound();
        FullHttpRequest large = channel.readInbound();
        assertEquals("abc", chunked.content().toString(StandardCharsets.US_ASCII));
        assertTrue(large.decoderResult().cause() instanceof RefusedRequest);
        chunked.release();
        large.release();
        channel.finishAndReleaseAll();
    }
}

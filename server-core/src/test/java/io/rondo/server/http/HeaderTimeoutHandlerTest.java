package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deadline for a request to arrive whole, on an embedded channel whose clock the test moves:
 * at the deadline less a nanosecond nothing happens, just past it the 408.
 */
class HeaderTimeoutHandlerTest {

    private static final long TIMEOUT_MS = 1_000;
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
    private static final String GET = "GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n";

    private EmbeddedChannel channel;

    @BeforeEach
    void connect() {
        HeaderTimeoutHandler timeout = new HeaderTimeoutHandler(TIMEOUT_MS);
        channel = new EmbeddedChannel(timeout, new HttpServerCodec(), timeout.afterCodec());
        channel.freezeTime();
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private void receive(String bytes) {
        channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1));
    }

    private void advance(long nanos) {
        channel.advanceTimeBy(nanos, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
    }

    /** Answers every request the codec has decoded, as the handler behind it would. */
    private void answerAll() {
        for (Object request = channel.readInbound(); request != null; request = channel.readInbound()) {
            if (request instanceof HttpRequest) {
                DefaultFullHttpResponse ok = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                HttpUtil.setContentLength(ok, 0);
                channel.writeOutbound(ok);
            }
            ReferenceCountUtil.release(request);
        }
        releaseOutbound();
    }

    private void releaseOutbound() {
        for (Object written = channel.readOutbound(); written != null; written = channel.readOutbound()) {
            ReferenceCountUtil.release(written);
        }
    }

    private String written() {
        StringBuilder text = new StringBuilder();
        for (Object written = channel.readOutbound(); written != null; written = channel.readOutbound()) {
            text.append(((ByteBuf) written).toString(StandardCharsets.ISO_8859_1));
            ReferenceCountUtil.release(written);
        }
        return text.toString();
    }

    @Test
    void aHeaderDribbledInIsAnswered408AtItsDeadlineFromTheFirstByte() {
        receive("G");
        advance(TIMEOUT_NS / 2);
        receive("ET /a.txt HTTP/1.1\r\n");
        advance(TIMEOUT_NS / 2 - 1);

        assertNull(channel.readOutbound(), "a nanosecond before the deadline, nothing");
        assertTrue(channel.isActive());

        receive("Host: x\r\n");
        advance(1);

        String answer = written();
        assertTrue(answer.startsWith("HTTP/1.1 408 Request Timeout\r\n"), answer);
        assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), answer);
        assertFalse(channel.isActive(), "the connection is closed");
    }

    @Test
    void aWholeRequestStopsItsDeadlineAndAnIdleConnectionIsNotTimedOut() {
        receive("GET /a.txt HTTP/1.1\r\n");
        advance(TIMEOUT_NS - 1);
        receive("Host: x\r\n\r\n");
        answerAll();

        advance(10 * TIMEOUT_NS);

        assertNull(channel.readOutbound());
        assertTrue(channel.isActive(), "waiting for the next request is the idle timeout's business");
    }

    @Test
    void theNextRequestHasADeadlineOfItsOwnFromItsFirstByte() {
        receive(GET);
        answerAll();
        advance(TIMEOUT_NS / 2);
        receive("GET /a.txt HTTP/1.1\r\n");
        advance(TIMEOUT_NS - 1);

        assertNull(channel.readOutbound(), "the timer armed for the first request was moved to the second's deadline");

        advance(1);

        assertTrue(written().startsWith("HTTP/1.1 408 "));
        assertFalse(channel.isActive());
    }

    @Test
    void aLateRequestBehindAnAnswerStillBeingWrittenClosesTheConnectionWithoutA408() {
        receive(GET + "GET /b.txt HTTP/1.1\r\n");
        receive("Host: x\r\n");
        assertEquals(1, countRequests(), "the first request is in; its answer is not yet written");

        advance(TIMEOUT_NS);

        assertEquals("", written(), "no 408 inside another answer");
        assertFalse(channel.isActive());
    }

    @Test
    void blankLinesBetweenRequestsStartNoDeadline() {
        receive(GET);
        answerAll();
        receive("\r\n");

        advance(10 * TIMEOUT_NS);

        assertTrue(channel.isActive());
    }

    @Test
    void onceTheConnectionSwitchesProtocolsItIsNoLongerTimedAsHttp() {
        receive("GET /stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
        countRequests();
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
            HttpResponseStatus.SWITCHING_PROTOCOLS));
        releaseOutbound();
        assertNull(channel.pipeline().get(HeaderTimeoutHandler.class));

        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0x81, 0x05}));
        advance(10 * TIMEOUT_NS);

        assertTrue(channel.isActive(), "a WebSocket frame in pieces is not a late request");
    }

    private int countRequests() {
        int requests = 0;
        for (Object message = channel.readInbound(); message != null; message = channel.readInbound()) {
            requests += message instanceof HttpRequest ? 1 : 0;
            ReferenceCountUtil.release(message);
        }
        return requests;
    }
}

package io.rondo.server.http;

import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.timeout.IdleStateEvent;
import io.rondo.server.config.DiskSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One connection's side of discrete data, on an embedded channel over a real library's disks:
 * pipelined requests in order, backpressure, what a close gives back, idleness, and errors.
 */
class DiscreteHandlerTest extends EmbeddedHttpTest {

    private static final int SIZE = 2 * DiskSettings.DEFAULT_MAX_READ + 1000;

    private static byte[] bytes;

    @BeforeAll
    static void ingest() throws Exception {
        bytes = library.ingest("/docs/big.bin", SIZE, 11);
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderEachOnceTheBodyBeforeItIsSent() {
        http.channel.writeInbound(EmbeddedHttp.request(HttpMethod.GET, "/docs/big.bin"),
            EmbeddedHttp.request(HttpMethod.GET, "/docs/nothing.txt"));

        assertTrue(http.channel.outboundMessages().isEmpty(),
            "nothing yet: the first answer waits for its first read, the second for the first");
        EmbeddedHttp.Answer first = http.next();
        EmbeddedHttp.Answer second = http.next();
        assertEquals(200, first.status());
        assertArrayEquals(bytes, first.body(), "the second answer did not cut into the first body");
        assertEquals(404, second.status());
    }

    // A client that pipelines without taking its answers is no longer read from: it holds 16 requests, not millions.
    @Test
    void aPipelinedFloodStopsTheReadingUntilTheAnswersAreTaken() {
        for (int i = 0; i < DiscreteHandler.MAX_WAITING; i++) {
            http.channel.writeInbound(EmbeddedHttp.request(HttpMethod.GET, "/docs/nothing.txt"));
        }
        assertTrue(http.channel.config().isAutoRead(), "answered at once: nothing waits");
        http.writable(false);
        for (int i = 0; i <= DiscreteHandler.MAX_WAITING; i++) {
            http.channel.writeInbound(EmbeddedHttp.request(HttpMethod.GET, "/docs/nothing.txt"));
        }
        assertFalse(http.channel.config().isAutoRead(), "17 wait for a client that takes nothing: no more reads");
        http.writable(true);
        assertTrue(http.channel.config().isAutoRead(), "the client took its answers: read again");
        for (int i = 0; i < 2 * DiscreteHandler.MAX_WAITING + 1; i++) {
            assertEquals(404, http.next().status());
        }
    }

    @Test
    void whileTheClientTakesNoMoreNoFurtherChunkIsRead() {
        http.channel.writeInbound(EmbeddedHttp.request(HttpMethod.GET, "/docs/big.bin"));
        assertEquals(1, http.chunks.asked());
        http.writable(false);

        http.chunks.deliverNext(http.channel);
        assertEquals(1, http.chunks.asked(), "the chunk is written, but the next is not read while unwritable");
        http.writable(true);
        assertEquals(2, http.chunks.asked(), "writable again: the next chunk is read");
        assertArrayEquals(bytes, http.next().body());
    }

    /**
     * A chunk written as the channel turns unwritable is flushed all the same: left unflushed it
     * would count against the write buffer for ever, and a buffer that never drains below its low
     * mark never turns writable again. Here one chunk alone fills the buffer; on a socket it is
     * the chunk that arrives as a slow client's queue nears the high mark.
     */
    @Test
    void aChunkThatFillsTheWriteBufferIsStillSent() {
        http.channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(DiskSettings.DEFAULT_MAX_READ / 4,
            DiskSettings.DEFAULT_MAX_READ / 2));

        assertArrayEquals(bytes, http.get("/docs/big.bin").body());
    }

    @Test
    void anAnswerFromMemoryWaitsUntilTheChannelIsWritable() {
        http.writable(false);
        http.channel.writeInbound(EmbeddedHttp.request(HttpMethod.GET, "/docs/"));
        assertTrue(http.channel.outboundMessages().isEmpty(), "no answer while unwritable");

        http.writable(true);
        assertEquals(200, http.next().status());
    }

    @Test
    void aClosedConnectionAbandonsItsBodyAndGivesBackEveryBufferAndTheLease() throws Exception {
        library.ingest("/docs/leaving.bin", SIZE, 12);
        http.channel.writeInbound(EmbeddedHttp.request(HttpMethod.GET, "/docs/leaving.bin"));
        http.chunks.deliverNext(http.channel);
        assertEquals(1, http.chunks.inFlight(), "the second chunk is being read");

        http.channel.close();
        http.chunks.deliverNext(http.channel);

        assertEquals(0, http.chunks.inFlight());
        assertEquals(2, http.chunks.asked(), "nothing more is read for a closed connection");
        assertEquals(0, library.disks().buffers().outstanding(), "the chunk read after the close is released too");
        library.library().directory().delete("/docs/leaving.bin");
    }

    @Test
    void anIdleConnectionIsClosedUnlessABodyIsOnItsWay() {
        http.channel.writeInbound(EmbeddedHttp.request(HttpMethod.GET, "/docs/big.bin"));
        http.channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertTrue(http.channel.isOpen(), "a slow download is not idle");

        assertArrayEquals(bytes, http.next().body());
        http.channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertFalse(http.channel.isOpen(), "idle between requests: closed");
    }

    @Test
    void anErrorIsLoggedOnceAsAWarningWithThePeerAndClosesTheConnection() {
        String log = standardErrorOf(() ->
            http.channel.pipeline().fireExceptionCaught(new IllegalStateException("a decoder broke")));

        assertFalse(http.channel.isOpen());
        assertEquals(1, log.lines().filter(line -> line.contains("a decoder broke")).count(), log);
        String line = log.lines().filter(text -> text.contains("a decoder broke")).findFirst().orElseThrow();
        assertTrue(line.contains("WARN") && line.contains("from " + http.channel.remoteAddress()), line);
        assertFalse(log.contains("\tat "), "the stack trace only where DEBUG is on: " + log);
    }

    @Test
    void aPeerThatResetTheConnectionIsNoWarning() {
        EmbeddedHttp other = new EmbeddedHttp(library, new HotObjects());
        String log = standardErrorOf(() -> {
            http.channel.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
            other.channel.pipeline().fireExceptionCaught(new SocketException("Connection reset"));
        });

        assertFalse(http.channel.isOpen());
        assertFalse(other.channel.isOpen());
        other.close();
        assertFalse(log.contains("Connection reset"), log);
        assertTrue(DiscreteHandler.peerReset(new IOException("writevAddresses(..) failed: Broken pipe")));
        assertFalse(DiscreteHandler.peerReset(new IOException("No space left on device")));
    }

    /** What slf4j-simple (WARN and above, on System.err) writes while {@code action} runs. */
    private static String standardErrorOf(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}

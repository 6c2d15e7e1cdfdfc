package io.rondo.benchmarks.load.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.rondo.scheduler.time.SystemClocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP load against a real server on a real socket (the JDK's HttpServer): what it counts,
 * and that the open model charges a server's stall to every request that arrived during it, where
 * a closed loop would not (coordinated omission).
 */
class HttpLoadTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final byte[] BODY = new byte[1000];

    private HttpServer server;
    private EventLoopGroup group;
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicBoolean stallOnce = new AtomicBoolean();
    private final CountDownLatch stallNow = new CountDownLatch(1);
    private volatile long stallMs;

    @BeforeAll
    static void noDelay() {
        // The JDK's server writes headers and body apart; with Nagle's algorithm on, each answer would wait
        // for the client's delayed ACK (40 ms).
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", this::answer);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.stop(0);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/stall") && stallOnce.compareAndSet(true, false)) {
                stallNow.countDown();
                sleep(stallMs);
            }
            if (path.equals("/never")) {
                sleep(5_000);
                return;
            }
            if (path.equals("/missing")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            served.incrementAndGet();
            exchange.sendResponseHeaders(200, BODY.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(BODY);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private InetSocketAddress address() {
        return server.getAddress();
    }

    @Test
    void anOpenLoadOffersItsRateAndCountsWhatCameBack() throws Exception {
        HttpLoad load = new HttpLoad(group, List.of("/a", "/b"), SystemClocks.nanoClock());
        LoadStep step = load.open(new HttpLoad.Step(address(), 400, 8, 200 * MS, 1000 * MS, 2000 * MS, 1)).get();
        // Poisson arrivals at 400/s over one second: 400 +- 20 (sd), so 300..500 holds all but never.
        assertTrue(step.ok() >= 300 && step.ok() <= 500, "answered " + step.ok());
        assertEquals(0, step.errors());
        assertEquals(0, step.timeouts());
        assertEquals(step.ok() * BODY.length, step.bytes());
        assertEquals(step.ok(), step.latencyUs().getTotalCount());
        // A server that keeps up answers within the window about what arrived in it.
        assertTrue(Math.abs(step.answeredInWindow() - step.ok()) <= 20, step.answeredInWindow() + " vs " + step.ok());
        assertTrue(served.get() > step.ok(), "the warm-up's requests were sent but not counted");
        assertTrue(step.keptUp());
    }

    @Test
    void aStallIsChargedToEveryRequestThatArrivedDuringIt() throws Exception {
        stallMs = 400;
        HttpLoad load = new HttpLoad(group, List.of("/stall"), SystemClocks.nanoClock());
        stallOnce.set(true);
        // One connection: every request that arrives while the stalled one is in flight waits for it.
        LoadStep open = load.open(new HttpLoad.Step(address(), 200, 1, 0, 1000 * MS, 3000 * MS, 2)).get();
        assertTrue(stallNow.await(0, TimeUnit.SECONDS));
        // About 80 requests arrived within the 400 ms stall; measured from their intended starts, each
        // waited tens to hundreds of ms, so well over 5 % of all took 100 ms or more.
        assertTrue(open.latencyMs(95) >= 100, "open p95 " + open.latencyMs(95) + " ms");
        assertTrue(open.maxMs() >= 350, "open max " + open.maxMs() + " ms");
        assertTrue(!open.keptUp() || open.latencyMs(99) >= 100, "a stall shows in the open model's tail");

        stallOnce.set(true);
        LoadStep closed = load.closed(new HttpLoad.Step(address(), 0, 1, 0, 1000 * MS, 3000 * MS, 3)).get();
        // A closed loop sends nothing while it waits: one slow request, the rest fast.
        assertTrue(closed.maxMs() >= 350, "closed max " + closed.maxMs() + " ms");
        assertTrue(closed.latencyMs(95) < 100, "closed p95 " + closed.latencyMs(95) + " ms");
    }

    @Test
    void errorsAndTimeoutsAreCountedApart() throws Exception {
        HttpLoad missing = new HttpLoad(group, List.of("/missing"), SystemClocks.nanoClock());
        LoadStep errors = missing.open(new HttpLoad.Step(address(), 100, 4, 0, 500 * MS, 1000 * MS, 4)).get();
        assertTrue(errors.errors() > 20, "errors " + errors.errors());
        assertEquals(0, errors.ok());
        assertTrue(!errors.keptUp());

        HttpLoad never = new HttpLoad(group, List.of("/never"), SystemClocks.nanoClock());
        LoadStep timeouts = never.open(new HttpLoad.Step(address(), 50, 2, 0, 400 * MS, 300 * MS, 5)).get();
        assertTrue(timeouts.timeouts() > 5, "timeouts " + timeouts.timeouts());
        assertEquals(0, timeouts.ok());
    }

    @Test
    void aClosedLoopKeepsEachConnectionBusy() throws Exception {
        HttpLoad load = new HttpLoad(group, List.of("/a"), SystemClocks.nanoClock());
        // A second's warm-up: the server's first answers in a fresh JVM take hundreds of milliseconds.
        LoadStep step = load.closed(new HttpLoad.Step(address(), 0, 4, 1000 * MS, 500 * MS, 2000 * MS, 6)).get();
        assertTrue(step.ok() > 50, "answered " + step.ok() + ", p50 " + step.latencyMs(50) + " ms, max "
            + step.maxMs() + " ms, served " + served.get());
        assertTrue(Double.isNaN(step.offeredPerSecond()));
        assertEquals(0, step.errors() + step.timeouts());
    }
}

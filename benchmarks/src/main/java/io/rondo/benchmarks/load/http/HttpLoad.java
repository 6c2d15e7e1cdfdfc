package io.rondo.benchmarks.load.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.NanoClock;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP load of GETs for random paths of a file set, in one of two models.
 *
 * <p><b>Open</b> ({@link #open}): requests arrive as a Poisson process at a fixed offered rate,
 * whatever the server does, and each one's latency is measured from its <em>intended</em> start,
 * the moment it arrived, not from when a connection was free to send it. A server that stalls is
 * charged for every request that queued behind the stall, which a closed loop (wrk, ab) hides by
 * not sending while it waits: Gil Tene's coordinated omission. Requests wait for one of at most
 * {@code connections} keep-alive connections, opened as needed.
 *
 * <p><b>Closed</b> ({@link #closed}): every connection sends its next request as soon as the last
 * one is answered, as wrk does: the server's saturation throughput at that concurrency.
 *
 * <p>The load runs on the event loops of the group it is given, each loop a driver of its own
 * share of the rate and connections, so nothing is shared but the final merge. A request not
 * answered within the timeout is counted as timed out and its connection closed; a status other
 * than 200 or 206, or a broken connection, counts as an error. Only requests that arrived within
 * the measured window are counted and timed; those of the warm-up before it only warm. The
 * throughput is what was answered within the window, so a server that falls behind is not
 * credited with the backlog it answers after it.
 */
public final class HttpLoad {

    /** Latencies are recorded in microseconds, up to this many (a minute), at 3 significant digits. */
    public static final long HIGHEST_US = TimeUnit.MINUTES.toMicros(1);

    private static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EventLoopGroup group;
    private final List<String> paths;
    private final NanoClock clock;

    /**
     * @param group the event loops the load runs on (one driver per loop)
     * @param paths the request targets, e.g. {@code /f000.bin}, one chosen at random per request
     * @param clock the clock arrivals are paced and latencies measured on
     */
    public HttpLoad(EventLoopGroup group, List<String> paths, NanoClock clock) {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("an HTTP load needs at least one path");
        }
        this.group = group;
        this.paths = List.copyOf(paths);
        this.clock = clock;
    }

    /** What one step of load asks for. */
    public record Step(InetSocketAddress server, double ratePerSecond, int connections, long warmupNs,
                       long measureNs, long timeoutNs, long seed) {

        /** Checks the figures. */
        public Step {
            if (connections < 1 || warmupNs < 0 || measureNs <= 0 || timeoutNs <= 0) {
                throw new IllegalArgumentException("a load step needs a connection, a measured time and a timeout");
            }
        }
    }

    /** Runs an open-model step at {@code step.ratePerSecond()}; completes when its last request is settled. */
    public CompletableFuture<LoadStep> open(Step step) {
        if (!(step.ratePerSecond() > 0)) {
            throw new IllegalArgumentException("an open load needs a positive rate, was " + step.ratePerSecond());
        }
        return run(step, true);
    }

    /** Runs a closed-loop step: each connection keeps exactly one request in flight. */
    public CompletableFuture<LoadStep> closed(Step step) {
        return run(step, false);
    }

    private CompletableFuture<LoadStep> run(Step step, boolean open) {
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor executor : group) {
            loops.add((EventLoop) executor);
        }
        int drivers = Math.min(loops.size(), step.connections());
        long startNs = clock.nanoTime();
        List<CompletableFuture<Driver>> done = new ArrayList<>();
        for (int i = 0; i < drivers; i++) {
            int connections = step.connections() / drivers + (i < step.connections() % drivers ? 1 : 0);
            Driver driver = new Driver(loops.get(i), step, open, step.ratePerSecond() / drivers, connections,
                startNs, new SplittableRandom(step.seed() * 31 + i));
            done.add(driver.finished);
            loops.get(i).execute(driver::start);
        }
        return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Histogram merged = new Histogram(HIGHEST_US, 3);
            long ok = 0;
            long inWindow = 0;
            long errors = 0;
            long timeouts = 0;
            long bytes = 0;
            for (CompletableFuture<Driver> future : done) {
                Driver driver = future.join();
                merged.add(driver.latencyUs);
                ok += driver.ok;
                inWindow += driver.answeredInWindow;
                errors += driver.errors;
                timeouts += driver.timeouts;
                bytes += driver.bytes;
            }
            return new LoadStep(open ? step.ratePerSecond() : Double.NaN, step.connections(), step.measureNs(), ok,
                inWindow, errors, timeouts, bytes, merged);
        });
    }

    /** One request: where it goes and when it was meant to start. */
    private record Request(String path, long intendedNs) {
    }

    /** One event loop's share of the load; touched only on that loop. */
    private final class Driver {

        final CompletableFuture<Driver> finished = new CompletableFuture<>();
        final Histogram latencyUs = new Histogram(HIGHEST_US, 3);
        long ok;
        long answeredInWindow;
        long errors;
        long timeouts;
        long bytes;

        private final EventLoop loop;
        private final Step step;
        private final boolean open;
        private final double meanGapNs;
        private final int maxConnections;
        private final long measureFromNs;
        private final long endNs;
        private final SplittableRandom random;
        private final ArrayDeque<Connection> idle = new ArrayDeque<>();
        private final ArrayDeque<Request> waiting = new ArrayDeque<>();
        private final List<Connection> all = new ArrayList<>();
        private final Bootstrap bootstrap;
        private long nextArrivalNs;
        private int opening;
        private boolean ending;
        private ScheduledFuture<?> ticker;

        Driver(EventLoop loop, Step step, boolean open, double ratePerSecond, int maxConnections, long startNs,
               SplittableRandom random) {
            this.loop = loop;
            this.step = step;
            this.open = open;
            this.meanGapNs = open ? 1e9 / ratePerSecond : 0;
            this.maxConnections = maxConnections;
            this.measureFromNs = startNs + step.warmupNs();
            this.endNs = measureFromNs + step.measureNs();
            this.random = random;
            this.nextArrivalNs = startNs;
            this.bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) TimeUnit.NANOSECONDS.toMillis(step.timeoutNs()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new HttpClientCodec(), new Connection());
                    }
                });
        }

        void start() {
            if (open) {
                nextArrivalNs += gapNs();
            } else {
                for (int i = 0; i < maxConnections; i++) {
                    connect();
                }
            }
            ticker = loop.scheduleAtFixedRate(this::tick, 0, TICK_NS, TimeUnit.NANOSECONDS);
        }

        private void tick() {
            long nowNs = clock.nanoTime();
            if (open) {
                while (nextArrivalNs - nowNs <= 0 && nextArrivalNs - endNs < 0) {
                    dispatch(new Request(randomPath(), nextArrivalNs));
                    nextArrivalNs += gapNs();
                }
            }
            expire(nowNs);
            if (!ending && nowNs - endNs >= 0) {
                ending = true;
            }
            if (ending && (waiting.isEmpty() && all.stream().noneMatch(Connection::busy)
                || nowNs - endNs - step.timeoutNs() > 0)) {
                finish();
            }
        }

        private long gapNs() {
            return Math.max(1, Math.round(-Math.log(1.0 - random.nextDouble()) * meanGapNs));
        }

        private String randomPath() {
            return paths.get(random.nextInt(paths.size()));
        }

        private void dispatch(Request request) {
            Connection connection = idle.pollFirst();
            if (connection != null) {
                connection.send(request);
                return;
            }
            waiting.addLast(request);
            if (all.size() + opening < maxConnections) {
                connect();
            }
        }

        private void connect() {
            opening++;
            ChannelFuture connecting = bootstrap.connect(step.server());
            connecting.addListener(done -> {
                opening--;
                if (!done.isSuccess()) {
                    if (!ending && !waiting.isEmpty()) {
                        Request lost = waiting.pollFirst();
                        countError(lost.intendedNs());
                    }
                    if (!open && !ending) {
                        loop.schedule(this::connect, 100, TimeUnit.MILLISECONDS);
                    }
                }
            });
        }

        /** A request waiting or in flight past the timeout is timed out; its connection closed. */
        private void expire(long nowNs) {
            while (!waiting.isEmpty() && nowNs - waiting.peekFirst().intendedNs() - step.timeoutNs() > 0) {
                Request late = waiting.pollFirst();
                if (measured(late.intendedNs())) {
                    timeouts++;
                }
            }
            for (Connection connection : List.copyOf(all)) {
                Request current = connection.current;
                if (current != null && nowNs - current.intendedNs() - step.timeoutNs() > 0) {
                    connection.current = null;
                    if (measured(current.intendedNs())) {
                        timeouts++;
                    }
                    connection.channel.close();
                }
            }
        }

        private boolean measured(long intendedNs) {
            return intendedNs - measureFromNs >= 0 && intendedNs - endNs < 0;
        }

        private void countError(long intendedNs) {
            if (measured(intendedNs)) {
                errors++;
            }
        }

        /** A connection is free: it takes the next waiting request, or the next of a closed loop, or idles. */
        private void ready(Connection connection) {
            long nowNs = clock.nanoTime();
            if (!open) {
                if (nowNs - endNs < 0) {
                    connection.send(new Request(randomPath(), nowNs));
                }
                return;
            }
            Request next = waiting.pollFirst();
            if (next != null) {
                connection.send(next);
            } else {
                idle.addLast(connection);
            }
        }

        private void finish() {
            if (finished.isDone()) {
                return;
            }
            ticker.cancel(false);
            for (Request request : waiting) {
                if (measured(request.intendedNs())) {
                    timeouts++;
                }
            }
            waiting.clear();
            for (Connection connection : List.copyOf(all)) {
                if (connection.current != null && measured(connection.current.intendedNs())) {
                    timeouts++;
                }
                connection.current = null;
                connection.channel.close();
            }
            finished.complete(this);
        }

        /** One keep-alive connection with at most one request in flight. */
        private final class Connection extends SimpleChannelInboundHandler<HttpObject> {

            Channel channel;
            Request current;
            private boolean failed;

            boolean busy() {
                return current != null;
            }

            void send(Request request) {
                current = request;
                failed = false;
                FullHttpRequest get = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, request.path());
                get.headers().set(HttpHeaderNames.HOST, step.server().getHostString());
                channel.writeAndFlush(get, channel.voidPromise());
            }

            @Override
            public void channelActive(ChannelHandlerContext context) {
                channel = context.channel();
                all.add(this);
                if (finished.isDone()) {
                    channel.close();
                    return;
                }
                ready(this);
            }

            @Override
            protected void channelRead0(ChannelHandlerContext context, HttpObject message) {
                if (current == null) {
                    return;
                }
                if (message instanceof HttpResponse response) {
                    int status = response.status().code();
                    failed = status != 200 && status != 206;
                }
                if (message instanceof HttpContent content) {
                    if (measured(current.intendedNs())) {
                        bytes += content.content().readableBytes();
                    }
                    if (message instanceof LastHttpContent) {
                        Request answered = current;
                        current = null;
                        long nowNs = clock.nanoTime();
                        if (!failed && measured(nowNs)) {
                            answeredInWindow++;
                        }
                        if (measured(answered.intendedNs())) {
                            if (failed) {
                                errors++;
                            } else {
                                ok++;
                                long us = (nowNs - answered.intendedNs()) / 1000;
                                latencyUs.recordValue(Math.max(1, Math.min(HIGHEST_US, us)));
                            }
                        }
                        ready(this);
                    }
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext context) {
                all.remove(this);
                idle.remove(this);
                if (current != null) {
                    countError(current.intendedNs());
                    current = null;
                }
                if (!finished.isDone() && !ending && (!open || !waiting.isEmpty())) {
                    connect();
                }
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
                context.close();
            }
        }
    }
}

package io.rondo.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.ChannelOption;
import io.rondo.content.ingest.Directory;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.runtime.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.runtime.Transport;
import io.rondo.server.stream.StreamServer;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * Rondo's HTTP server for discrete data: it only starts and stops; {@link HttpInitializer} builds
 * each connection's pipeline and {@link DiscreteHandler} answers. Epoll where the native transport
 * loads, NIO otherwise.
 */
public final class HttpServer implements AutoCloseable {

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel channel;
    private final HotObjects hot;

    private HttpServer(EventLoopGroup boss, EventLoopGroup workers, Channel channel, HotObjects hot) {
        this.boss = boss;
        this.workers = workers;
        this.channel = channel;
        this.hot = hot;
    }

    /** Binds and starts serving; returns once the port is open. */
    public static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks)
        throws InterruptedException {
        return start(address, directory, disks, null);
    }

    /**
     * Binds and starts serving, with the stream protocol's WebSocket binding at {@code /stream}
     * when {@code streams} is given; returns once the port is open.
     */
    public static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                   StreamServer streams) throws InterruptedException {
        return start(address, directory, disks, streams, HttpSettings.defaults());
    }

    /**
     * Binds and starts serving with the limits, buffers and hot-object cache {@code settings}
     * gives ({@code http:} in rondo.yaml); returns once the port is open.
     */
    public static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                   StreamServer streams, HttpSettings settings) throws InterruptedException {
        return start(address, directory, disks, streams, settings, null);
    }

    /**
     * Binds and starts serving as {@link #start(InetSocketAddress, Directory, DiskRuntime, StreamServer,
     * HttpSettings)}, timing every request and counting the bytes sent, the hot-object cache and the
     * event loops in {@code metrics}.
     */
    public static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                   StreamServer streams, HttpSettings settings, RondoMetrics metrics)
        throws InterruptedException {
        return start(address, directory, disks, streams, settings, metrics, Clock.systemUTC(),
            ConnectionLimit.unlimited("HTTP"));
    }

    /**
     * Binds and starts serving as {@link #start(InetSocketAddress, Directory, DiskRuntime, StreamServer,
     * HttpSettings, RondoMetrics)}, dating every answer by {@code clock} (the {@code Date} header) and
     * holding no more connections than {@code limit} allows.
     */
    public static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                   StreamServer streams, HttpSettings settings, RondoMetrics metrics, Clock clock,
                                   ConnectionLimit limit) throws InterruptedException {
        return start(address, directory, disks, streams,
            new HotObjects(settings.hotObjectMaxBytes(), settings.hotObjectsTotalBytes()), settings, metrics, clock,
            limit);
    }

    /**
     * Binds and starts serving, as {@link #start(InetSocketAddress, Directory, DiskRuntime, StreamServer)},
     * with hot objects served from {@code hot}, which {@link #close()} empties; returns once the port is open.
     */
    public static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                   StreamServer streams, HotObjects hot) throws InterruptedException {
        return start(address, directory, disks, streams, hot, HttpSettings.defaults(), null, Clock.systemUTC(),
            ConnectionLimit.unlimited("HTTP"));
    }

    private static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                    StreamServer streams, HotObjects hot, HttpSettings settings,
                                    RondoMetrics metrics, Clock clock, ConnectionLimit limit)
        throws InterruptedException {
        EventLoopGroup boss = Transport.group(1, "rondo-http-accept");
        EventLoopGroup workers = Transport.group(0, EVENT_LOOP_PREFIX);
        try {
            Channel channel = Transport.bind(new ServerBootstrap().group(boss, workers)
                .channel(Transport.serverChannel())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                    settings.writeBufferLowBytes(), settings.writeBufferHighBytes()))
                .childHandler(new HttpInitializer(directory, disks, streams, hot, settings, metrics, clock, limit)),
                address, "", "--port");
            if (metrics != null) {
                metrics.bindHttp(hot, workers);
            }
            return new HttpServer(boss, workers, channel, hot);
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully(QUIET_MS, TIMEOUT_MS, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(QUIET_MS, TIMEOUT_MS, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /** The prefix of the event-loop threads' names: no disk IO ever happens on them. */
    public static final String EVENT_LOOP_PREFIX = "rondo-http";

    /** Where the server listens (the port chosen when 0 was asked). */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The in-memory cache of small hot objects, with its hit and miss counts. */
    public HotObjects hotObjects() {
        return hot;
    }

    /** Whether the native epoll transport is in use. */
    public static boolean epoll() {
        return Transport.epoll();
    }

    /**
     * Stops accepting, lets connections finish what they are writing, ends the event loops, and
     * empties the hot-object cache it served from, freeing its memory.
     */
    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        boss.shutdownGracefully(QUIET_MS, TIMEOUT_MS, TimeUnit.MILLISECONDS).syncUninterruptibly();
        workers.shutdownGracefully(QUIET_MS, TIMEOUT_MS, TimeUnit.MILLISECONDS).syncUninterruptibly();
        hot.close();
    }

    /** Shutdown: how long the event loops must be quiet, and the most they may take. */
    private static final long QUIET_MS = 100;
    private static final long TIMEOUT_MS = 5_000;
}

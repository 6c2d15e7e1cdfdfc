package io.rondo.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.ChannelOption;
import io.rondo.content.ingest.Directory;
import io.rondo.server.cluster.PeerLibraries;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.Transport;
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

    /**
     * An HTTP server for {@code directory}'s objects read through {@code disks}, to be listening at
     * {@code address} once {@link Builder#start()} returns.
     */
    public static Builder on(InetSocketAddress address, Directory directory, DiskRuntime disks) {
        return new Builder(address, directory, disks);
    }

    /** What an HTTP server is started with: each part named, each but the clock with a default. */
    public static final class Builder {
        private final InetSocketAddress address;
        private final Directory directory;
        private final DiskRuntime disks;
        private StreamServer streams;
        private HttpSettings settings = HttpSettings.defaults();
        private HotObjects hot;
        private RondoMetrics metrics;
        private Clock clock;
        private ConnectionLimit limit = ConnectionLimit.unlimited("HTTP");
        private PeerLibraries peers;

        private Builder(InetSocketAddress address, Directory directory, DiskRuntime disks) {
            this.address = address;
            this.directory = directory;
            this.disks = disks;
        }

        /** The stream protocol's WebSocket binding at {@code /stream} (default: none). */
        public Builder streams(StreamServer streams) {
            this.streams = streams;
            return this;
        }

        /** The limits, buffers and hot-object cache ({@code http:} in rondo.yaml; default: its defaults). */
        public Builder settings(HttpSettings settings) {
            this.settings = settings;
            return this;
        }

        /** Hot objects served from {@code hot}, which closing the server empties (default: as the settings say). */
        public Builder hotObjects(HotObjects hot) {
            this.hot = hot;
            return this;
        }

        /** Every request timed and the bytes sent counted, with the cache and event loops (default: none). */
        public Builder metrics(RondoMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        /** What dates every answer (the {@code Date} header, conditional requests): required. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** The most connections held at once, in all and from one address (default: no limit). */
        public Builder limit(ConnectionLimit limit) {
            this.limit = limit;
            return this;
        }

        /** What the other nodes of this server's cluster hold, for folder pages (default: none, alone). */
        public Builder peers(PeerLibraries peers) {
            this.peers = peers;
            return this;
        }

        /** Binds and starts serving; returns once the port is open. */
        public HttpServer start() throws InterruptedException {
            if (clock == null) {
                throw new IllegalStateException("no clock: set clock(...)");
            }
            HotObjects cache = hot != null ? hot
                : new HotObjects(settings.hotObjectMaxBytes(), settings.hotObjectsTotalBytes());
            return HttpServer.start(address, directory, disks, streams, cache, settings, metrics, clock, limit, peers);
        }
    }

    private static HttpServer start(InetSocketAddress address, Directory directory, DiskRuntime disks,
                                    StreamServer streams, HotObjects hot, HttpSettings settings,
                                    RondoMetrics metrics, Clock clock, ConnectionLimit limit,
                                    PeerLibraries peers)
        throws InterruptedException {
        EventLoopGroup boss = Transport.group(1, "rondo-http-accept");
        EventLoopGroup workers = Transport.group(0, EVENT_LOOP_PREFIX);
        try {
            Channel channel = Transport.bind(new ServerBootstrap().group(boss, workers)
                .channel(Transport.serverChannel())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                    settings.writeBufferLowBytes(), settings.writeBufferHighBytes()))
                .childHandler(new HttpInitializer(directory, disks, streams, hot, settings, metrics, clock, limit,
                    peers)),
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

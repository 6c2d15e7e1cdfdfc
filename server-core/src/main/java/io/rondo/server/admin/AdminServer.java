package io.rondo.server.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.rondo.server.http.DateHeaderHandler;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.net.Transport;
import org.agrona.concurrent.NanoClock;

import javax.net.ssl.SSLException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * The admin port: the REST API under {@code /api/v1}, the health probes, the metrics and the
 * dashboard, on a port of its own (loopback unless {@code admin.address} says otherwise), with one
 * event-loop thread: administration is light, and must never take a thread from the ports that
 * serve the library. {@link AdminInitializer} builds each connection's pipeline.
 */
public final class AdminServer implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel channel;
    private final boolean tls;

    private AdminServer(EventLoopGroup group, Channel channel, boolean tls) {
        this.group = group;
        this.channel = channel;
        this.tls = tls;
    }

    /**
     * Binds the admin port, with the HTTP port's strictness: RFC 9112's message rules, a deadline of
     * {@code headerTimeoutMs} for each request's head to arrive ({@code http.headerTimeout}; an upload's
     * body may take longer), and no more connections than {@code limit} allows (a 503 past it).
     *
     * @param address         where to listen
     * @param router          the routes
     * @param tokens          the bearer tokens
     * @param metrics         where request times go
     * @param maxUploadBytes  the largest upload
     * @param certificate     a PEM certificate chain for TLS, or null for plain HTTP
     * @param key             its PEM private key, or null
     * @param headerTimeoutMs how long a request's head may take to arrive
     * @param clock           the wall clock that dates the answers
     * @param nanoClock       the clock of the requests' times, for the metrics
     * @param limit           the connections the port takes
     */
    public static AdminServer start(InetSocketAddress address, AdminRouter router, AdminTokens tokens,
                                    RondoMetrics metrics, long maxUploadBytes, Path certificate, Path key,
                                    long headerTimeoutMs, Clock clock, NanoClock nanoClock,
                                    ConnectionLimit limit)
        throws InterruptedException {
        SslContext context = certificate == null ? null : tls(certificate, key);
        EventLoopGroup group = Transport.group(1, "rondo-admin");
        try {
            Channel channel = Transport.bind(new ServerBootstrap().group(group)
                .channel(Transport.serverChannel())
                .childHandler(new AdminInitializer(router, tokens, metrics, maxUploadBytes, context, headerTimeoutMs,
                    new DateHeaderHandler(clock), nanoClock, limit)), address, " for administration",
                "--admin-port");
            return new AdminServer(group, channel, context != null);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    private static SslContext tls(Path certificate, Path key) {
        try {
            return SslContextBuilder.forServer(certificate.toFile(), key.toFile()).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("admin.tls: cannot use " + certificate + " and " + key + ": "
                + e.getMessage(), e);
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The base URL: {@code http://127.0.0.1:8081}, or https with TLS. */
    public String url() {
        InetSocketAddress address = address();
        String host = address.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return (tls ? "https" : "http") + "://" + host + ":" + address.getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}

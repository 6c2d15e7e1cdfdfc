package io.rondo.server.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.timeout.IdleStateHandler;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.http.DateHeaderHandler;
import io.rondo.server.http.HeaderTimeoutHandler;
import io.rondo.server.http.RequestConformanceHandler;
import io.rondo.server.http.ServiceUnavailable;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.runtime.ConnectionLimit;
import io.rondo.server.runtime.Transport;

import javax.net.ssl.SSLException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * The admin port: the REST API under {@code /api/v1}, the health probes, the metrics and the
 * dashboard, on a port of its own (loopback unless {@code admin.address} says otherwise), with one
 * event-loop thread: administration is light, and must never take a thread from the ports that
 * serve the library.
 */
public final class AdminServer implements AutoCloseable {

    /** How long a connection may sit idle between requests; an event stream keeps itself alive. */
    private static final int IDLE_SECONDS = 60;

    /** The longest piece of a body the codec hands on at once. */
    private static final int MAX_CHUNK = 65536;

    private final EventLoopGroup group;
    private final Channel channel;
    private final boolean tls;

    private AdminServer(EventLoopGroup group, Channel channel, boolean tls) {
        this.group = group;
        this.channel = channel;
        this.tls = tls;
    }

    /**
     * Binds the admin port.
     *
     * @param address        where to listen
     * @param router         the routes
     * @param tokens         the bearer tokens
     * @param metrics        where request times go
     * @param maxUploadBytes the largest upload
     * @param certificate    a PEM certificate chain for TLS, or null for plain HTTP
     * @param key            its PEM private key, or null
     */
    public static AdminServer start(InetSocketAddress address, AdminRouter router, AdminTokens tokens,
                                    RondoMetrics metrics, long maxUploadBytes, Path certificate, Path key)
        throws InterruptedException {
        return start(address, router, tokens, metrics, maxUploadBytes, certificate, key,
            HttpSettings.DEFAULT_HEADER_TIMEOUT_MS, Clock.systemUTC(), ConnectionLimit.unlimited("admin"));
    }

    /**
     * Binds the admin port as {@link #start(InetSocketAddress, AdminRouter, AdminTokens, RondoMetrics, long,
     * Path, Path)}, with the HTTP port's strictness: RFC 9112's message rules, a deadline of
     * {@code headerTimeoutMs} for each request's head to arrive ({@code http.headerTimeout}; an upload's body
     * may take longer), answers
     * dated by {@code clock}, and no more connections than {@code limit} allows (a 503 past it).
     */
    public static AdminServer start(InetSocketAddress address, AdminRouter router, AdminTokens tokens,
                                    RondoMetrics metrics, long maxUploadBytes, Path certificate, Path key,
                                    long headerTimeoutMs, Clock clock, ConnectionLimit limit)
        throws InterruptedException {
        DateHeaderHandler dates = new DateHeaderHandler(clock);
        SslContext ssl = null;
        if (certificate != null) {
            try {
                ssl = SslContextBuilder.forServer(certificate.toFile(), key.toFile()).build();
            } catch (SSLException | IllegalArgumentException e) {
                throw new IllegalArgumentException("admin.tls: cannot use " + certificate + " and " + key + ": "
                    + e.getMessage(), e);
            }
        }
        SslContext context = ssl;
        EventLoopGroup group = Transport.group(1, "rondo-admin");
        try {
            Channel channel = Transport.bind(new ServerBootstrap().group(group)
                .channel(Transport.serverChannel())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel socket) {
                        String refused = limit.admit(socket);
                        if (refused != null && context == null) {
                            ConnectionLimit.refuse(socket, ServiceUnavailable.response(dates, refused));
                            return;
                        }
                        if (refused != null) {
                            socket.close();
                            return;
                        }
                        if (context != null) {
                            socket.pipeline().addLast(context.newHandler(socket.alloc()));
                        }
                        HeaderTimeoutHandler headerTimeout = new HeaderTimeoutHandler(headerTimeoutMs, true);
                        socket.pipeline()
                            .addLast(headerTimeout)
                            .addLast(new HttpServerCodec(HttpSettings.DEFAULT_MAX_REQUEST_LINE,
                                HttpSettings.DEFAULT_MAX_HEADERS, MAX_CHUNK))
                            .addLast(dates)
                            .addLast(headerTimeout.afterCodec())
                            .addLast(new RequestConformanceHandler())
                            .addLast(new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS))
                            .addLast(new AdminHandler(router, tokens, metrics, maxUploadBytes));
                    }
                }), address, " for administration", "--admin-port");
            return new AdminServer(group, channel, context != null);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
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

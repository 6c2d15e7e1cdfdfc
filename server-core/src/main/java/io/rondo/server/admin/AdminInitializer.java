package io.rondo.server.admin;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.http.DateHeaderHandler;
import io.rondo.server.http.HeaderTimeoutHandler;
import io.rondo.server.http.RequestConformanceHandler;
import io.rondo.server.http.ServiceUnavailable;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;

/**
 * An admin connection's pipeline: TLS if configured, the head's deadline, the HTTP/1.1 codec, the
 * {@code Date} header, RFC 9112's rules, the idle timeout and the {@link AdminHandler}; or, past the
 * connection limit, a 503 (a bare close over TLS, which has not shaken hands yet).
 */
final class AdminInitializer extends ChannelInitializer<SocketChannel> {

    /** How long a connection may sit idle between requests; an event stream keeps itself alive. */
    private static final int IDLE_SECONDS = 60;

    /** The longest piece of a body the codec hands on at once. */
    private static final int MAX_CHUNK = 65536;

    private final AdminRouter router;
    private final AdminTokens tokens;
    private final RondoMetrics metrics;
    private final long maxUploadBytes;
    private final SslContext tls;
    private final long headerTimeoutMs;
    private final DateHeaderHandler dates;
    private final NanoClock nanoClock;
    private final ConnectionLimit limit;

    AdminInitializer(AdminRouter router, AdminTokens tokens, RondoMetrics metrics, long maxUploadBytes,
                     SslContext tls, long headerTimeoutMs, DateHeaderHandler dates, NanoClock nanoClock,
                     ConnectionLimit limit) {
        this.router = router;
        this.tokens = tokens;
        this.metrics = metrics;
        this.maxUploadBytes = maxUploadBytes;
        this.tls = tls;
        this.headerTimeoutMs = headerTimeoutMs;
        this.dates = dates;
        this.nanoClock = nanoClock;
        this.limit = limit;
    }

    @Override
    protected void initChannel(SocketChannel socket) {
        String refused = limit.admit(socket);
        if (refused != null && tls == null) {
            ConnectionLimit.refuse(socket, ServiceUnavailable.response(dates, refused));
            return;
        }
        if (refused != null) {
            socket.close();
            return;
        }
        if (tls != null) {
            socket.pipeline().addLast(tls.newHandler(socket.alloc()));
        }
        HeaderTimeoutHandler headerTimeout = new HeaderTimeoutHandler(headerTimeoutMs, true);
        socket.pipeline()
            .addLast(headerTimeout)
            .addLast(new HttpServerCodec(HttpSettings.DEFAULT_MAX_REQUEST_LINE, HttpSettings.DEFAULT_MAX_HEADERS,
                MAX_CHUNK))
            .addLast(dates)
            .addLast(headerTimeout.afterCodec())
            .addLast(new RequestConformanceHandler())
            .addLast(new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS))
            .addLast(new AdminHandler(router, tokens, metrics, maxUploadBytes, nanoClock));
    }
}

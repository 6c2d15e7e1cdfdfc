package io.rondo.server.http;

import io.micrometer.core.instrument.Counter;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.rondo.content.ingest.Directory;
import io.rondo.server.cluster.PeerLibraries;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;

import java.time.Clock;

/**
 * Builds the pipeline of one HTTP connection, if the port has room for it ({@link ConnectionLimit}; a 503
 * otherwise): HTTP/1.1 with its limits, a Date on every answer, then the
 * {@link DiscreteHandler}. With a stream server, the WebSocket protocol handler joins at the first
 * request for {@link #STREAM_PATH} and watches for the upgrade there, and the stream binding joins
 * only once an upgrade completes ({@link StreamUpgradeHandler}).
 */
final class HttpInitializer extends ChannelInitializer<Channel> {

    /** Where the stream protocol's WebSocket binding is. */
    static final String STREAM_PATH = "/stream";
    /** The name of the WebSocket protocol handler, once a request for {@link #STREAM_PATH} has put it in. */
    static final String WEBSOCKET = "stream-websocket";
    /** The longest header line Netty's decoder buffers at once; the limits that answer are the settings'. */
    private static final int MAX_CHUNK = 8192;

    private final Directory directory;
    private final DiskRuntime disks;
    private final StreamServer streams;
    private final DiscreteRouter router;
    private final HttpSettings settings;
    private final RondoMetrics metrics;
    private final Counter sent;
    private final DateHeaderHandler dates;
    private final ConnectionLimit limit;

    HttpInitializer(Directory directory, DiskRuntime disks, StreamServer streams, HotObjects hot,
                    HttpSettings settings, RondoMetrics metrics, Clock clock, ConnectionLimit limit,
                    PeerLibraries peers) {
        this.dates = new DateHeaderHandler(clock);
        this.limit = limit;
        this.metrics = metrics;
        this.sent = metrics == null ? null : metrics.httpSentBytes();
        this.directory = directory;
        this.disks = disks;
        this.streams = streams;
        this.settings = settings;
        this.router = new DiscreteRouter(directory, disks::read, hot, settings.maxRanges(), peers,
            streams == null ? null : new HlsRoutes(directory, streams.hls(), disks.roundNs()));
    }

    /**
     * Stands where the WebSocket binding would, until a request asks for {@link #STREAM_PATH} (or
     * a WebSocket upgrade at {@code /stream/NAME}, whose OPEN must then name NAME; a plain GET there
     * is an object's, as any path is):
     * then, if its page's Origin may open streams ({@code streams.allowedOrigins}; else 403), the
     * WebSocket protocol handler and the {@link StreamUpgradeHandler} take its place and the
     * request goes on to them. A connection that only fetches objects never carries them, so its
     * requests and responses pass two handlers fewer. A WebSocket frame longer than
     * {@code streams.maxClientFrame} is refused at its header, and reaches the stream session as
     * the protocol's FRAME_TOO_LARGE rather than as a bare close.
     */
    private final class StreamPathGate extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            String object = msg instanceof FullHttpRequest request && request.decoderResult().isSuccess()
                ? streamObject(request.uri()) : null;
            if (object != null && (object.isEmpty() || ((FullHttpRequest) msg).headers()
                .containsValue(HttpHeaderNames.UPGRADE, "websocket", true))) {
                FullHttpRequest request = (FullHttpRequest) msg;
                String origin = request.headers().get(HttpHeaderNames.ORIGIN);
                if (!streams.allowsOrigin(origin, request.headers().get(HttpHeaderNames.HOST))) {
                    HttpResponses.plain(ctx, request, HttpResponseStatus.FORBIDDEN, "pages of " + origin
                        + " may not open streams here (streams.allowedOrigins)", true);
                    request.release();
                    return;
                }
                ctx.pipeline()
                    .addAfter(ctx.name(), WEBSOCKET, new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig
                        .newBuilder().websocketPath(request.uri())
                        .maxFramePayloadLength(streams.settings().maxClientFrameBytes())
                        .closeOnProtocolViolation(false).handleCloseFrames(true).build()))
                    .addAfter(WEBSOCKET, null, new StreamUpgradeHandler(streams, directory, disks,
                        object.isEmpty() ? null : object));
                ctx.fireChannelRead(msg);
                if (!ctx.isRemoved()) {
                    ctx.pipeline().remove(this);
                }
                return;
            }
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * The object a request target names for the WebSocket binding: "" for {@code /stream} (any
     * object), NAME for {@code /stream/NAME} (percent-decoded, as an object's own URL is), null for
     * any other target.
     */
    static String streamObject(String uri) {
        if (uri.equals(STREAM_PATH)) {
            return "";
        }
        if (!uri.startsWith(STREAM_PATH + "/") || uri.length() == STREAM_PATH.length() + 1 || uri.indexOf('?') >= 0
            || uri.indexOf('#') >= 0) {
            return null;
        }
        try {
            return new QueryStringDecoder(uri).path().substring(STREAM_PATH.length() + 1);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    protected void initChannel(Channel channel) {
        String refused = limit.admit(channel);
        if (refused != null) {
            ConnectionLimit.refuse(channel, ServiceUnavailable.response(dates, refused));
            return;
        }
        HeaderTimeoutHandler headerTimeout = new HeaderTimeoutHandler(settings.headerTimeoutMs());
        channel.pipeline()
            .addLast(new IdleStateHandler(0, 0, settings.idleTimeoutSeconds()))
            .addLast(headerTimeout)
            .addLast(new HttpServerCodec(settings.maxRequestLineBytes(), settings.maxHeaderBytes(), MAX_CHUNK))
            .addLast(dates)
            .addLast(headerTimeout.afterCodec());
        if (metrics != null) {
            channel.pipeline().addLast(new HttpMetricsHandler(metrics, sent, disks.clock()));
        }
        channel.pipeline()
            .addLast(new KeepAliveHandler())
            .addLast(new RequestConformanceHandler())
            .addLast(new BodyLimitAggregator(settings.maxBodyBytes()));
        if (streams != null) {
            channel.pipeline().addLast(new StreamPathGate());
        }
        channel.pipeline().addLast(new DiscreteHandler(router));
    }
}

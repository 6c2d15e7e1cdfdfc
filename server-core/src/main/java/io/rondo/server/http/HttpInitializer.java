package io.rondo.server.http;

import io.micrometer.core.instrument.Counter;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.rondo.content.ingest.Directory;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.stream.WebSocketFrames;

/**
 * Builds the pipeline of one HTTP connection: HTTP/1.1 with its limits, then the
 * {@link DiscreteHandler}. With a stream server, the WebSocket protocol handler watches for the
 * upgrade at {@link #STREAM_PATH}, and the stream binding joins only once an upgrade completes
 * ({@link StreamUpgradeHandler}).
 */
final class HttpInitializer extends ChannelInitializer<Channel> {

    /** Where the stream protocol's WebSocket binding is. */
    static final String STREAM_PATH = "/stream";
    /** The longest header line Netty's decoder buffers at once; the limits that answer are the settings'. */
    private static final int MAX_CHUNK = 8192;

    private final Directory directory;
    private final DiskRuntime disks;
    private final StreamServer streams;
    private final DiscreteRouter router;
    private final HttpSettings settings;
    private final RondoMetrics metrics;
    private final Counter sent;

    HttpInitializer(Directory directory, DiskRuntime disks, StreamServer streams, HotObjects hot) {
        this(directory, disks, streams, hot, HttpSettings.defaults(), null);
    }

    HttpInitializer(Directory directory, DiskRuntime disks, StreamServer streams, HotObjects hot,
                    HttpSettings settings, RondoMetrics metrics) {
        this.metrics = metrics;
        this.sent = metrics == null ? null : metrics.httpSentBytes();
        this.directory = directory;
        this.disks = disks;
        this.streams = streams;
        this.settings = settings;
        this.router = new DiscreteRouter(directory, disks::read, hot, settings.maxRanges());
    }

    @Override
    protected void initChannel(Channel channel) {
        channel.pipeline()
            .addLast(new IdleStateHandler(0, 0, settings.idleTimeoutSeconds()))
            .addLast(new HttpServerCodec(settings.maxRequestLineBytes(), settings.maxHeaderBytes(), MAX_CHUNK));
        if (metrics != null) {
            channel.pipeline().addLast(new HttpMetricsHandler(metrics, sent));
        }
        channel.pipeline()
            .addLast(new HttpServerKeepAliveHandler())
            .addLast(new HttpObjectAggregator(settings.maxBodyBytes(), true));
        if (streams != null) {
            channel.pipeline()
                .addLast(new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig.newBuilder()
                    .websocketPath(STREAM_PATH).maxFramePayloadLength(WebSocketFrames.MAX_MESSAGE)
                    .handleCloseFrames(true).build()))
                .addLast(new StreamUpgradeHandler(streams, directory, disks));
        }
        channel.pipeline().addLast(new DiscreteHandler(router));
    }
}

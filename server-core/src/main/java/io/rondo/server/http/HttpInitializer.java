package io.rondo.server.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.rondo.content.ingest.Directory;
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

    /** The longest request line accepted (longer: 414). */
    static final int MAX_LINE = 8192;
    /** The most header bytes accepted (more: 431). */
    static final int MAX_HEADERS = 16384;
    /** The largest request body accepted (larger: 413): Rondo takes no uploads over this route. */
    static final int MAX_BODY = 64 * 1024;
    /** Where the stream protocol's WebSocket binding is. */
    static final String STREAM_PATH = "/stream";
    /** Seconds a connection may sit idle between requests. */
    static final int IDLE_SECONDS = 60;

    private final Directory directory;
    private final DiskRuntime disks;
    private final StreamServer streams;
    private final DiscreteRouter router;

    HttpInitializer(Directory directory, DiskRuntime disks, StreamServer streams, HotObjects hot) {
        this.directory = directory;
        this.disks = disks;
        this.streams = streams;
        this.router = new DiscreteRouter(directory, disks::read, hot);
    }

    @Override
    protected void initChannel(Channel channel) {
        channel.pipeline()
            .addLast(new IdleStateHandler(0, 0, IDLE_SECONDS))
            .addLast(new HttpServerCodec(MAX_LINE, MAX_HEADERS, 8192))
            .addLast(new HttpServerKeepAliveHandler())
            .addLast(new HttpObjectAggregator(MAX_BODY, true));
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

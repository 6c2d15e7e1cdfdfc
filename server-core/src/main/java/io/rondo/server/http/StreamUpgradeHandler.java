package io.rondo.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.rondo.content.ingest.Directory;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.stream.WebSocketFrames;

/**
 * Binds the stream protocol to an HTTP connection when, and only when, its WebSocket upgrade at
 * {@link HttpInitializer#STREAM_PATH}, or at {@code /stream/NAME} for one object,
 * completes. Until then the connection has no stream session,
 * so a plain HTTP connection's writability changes never wake the stream sender, and its close
 * ends no stream.
 *
 * <p>At the upgrade ({@link WebSocketServerProtocolHandler.HandshakeComplete}) an aggregator
 * that gathers a fragmented message (up to {@code streams.maxClientFrame}), the frame codec and a
 * new session join behind the WebSocket protocol handler, and what only HTTP requests needed
 * leaves: the {@link DiscreteHandler} and keep-alive. The session holds the client to the
 * protocol's deadlines (an OPEN within {@code streams.openTimeout}, then a frame every
 * {@code streams.clientTimeout}) as on the stream port; the HTTP idle limit stays behind them as
 * a last resort: a connection silent in both directions for {@code http.idleTimeoutSeconds} is
 * closed, which ends its stream and frees its admission. This handler leaves too.
 * The session takes its channel in {@code handlerAdded}, so joining an active channel is enough.
 */
final class StreamUpgradeHandler extends ChannelInboundHandlerAdapter {

    /** The names the stream binding's handlers have in the pipeline. */
    static final String AGGREGATOR = "stream-aggregator";
    static final String FRAMES = "stream-frames";
    static final String SESSION = "stream-session";
    static final String IDLE = "stream-idle";

    private final StreamServer streams;
    private final Directory directory;
    private final DiskRuntime disks;
    /** The object the upgrade's URL names ({@code /stream/NAME}), or null for {@code /stream}. */
    private final String object;

    StreamUpgradeHandler(StreamServer streams, Directory directory, DiskRuntime disks, String object) {
        this.streams = streams;
        this.directory = directory;
        this.disks = disks;
        this.object = object;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (!(event instanceof WebSocketServerProtocolHandler.HandshakeComplete)) {
            super.userEventTriggered(ctx, event);
            return;
        }
        ChannelPipeline pipeline = ctx.pipeline();
        int maxMessageBytes = streams.settings().maxClientFrameBytes();
        pipeline.addAfter(ctx.name(), AGGREGATOR, new WebSocketFrameAggregator(maxMessageBytes))
            .addAfter(AGGREGATOR, FRAMES, new WebSocketFrames())
            .addAfter(FRAMES, SESSION, streams.newSession(directory, disks, object))
            .addAfter(SESSION, IDLE, new IdleCloser());
        pipeline.remove(DiscreteHandler.class);
        pipeline.remove(KeepAliveHandler.class);
        ctx.fireUserEventTriggered(event);
        pipeline.remove(this);
    }

    /** Closes an upgraded connection that has been silent too long; its session then ends the stream. */
    private static final class IdleCloser extends ChannelInboundHandlerAdapter {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof IdleStateEvent) {
                ctx.close();
            } else {
                super.userEventTriggered(ctx, event);
            }
        }
    }
}

package io.rondo.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.timeout.IdleStateEvent;
import io.rondo.server.runtime.DiskRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.regex.Pattern;

/**
 * Answers GET and HEAD for discrete data on one connection: objects by their names, folders as
 * pages, with RFC 9110 ranges and preconditions. What each request is answered with is
 * {@link DiscreteRouter}'s; this handler owns the connection's side of it.
 *
 * <p>It never reads a disk: a body is fetched a chunk at a time from {@link DiskRuntime}
 * (D-requests through the disk's scheduler) by a {@link BodyPump}, which goes on only while the
 * channel is writable. Pipelined requests are answered in order, each once the body before it is
 * sent; while {@link #MAX_WAITING} wait, the connection is not read, so a client that pipelines
 * without taking its answers holds no more than that (and what one read of its socket brought). An
 * idle connection is closed unless a body is on its way; a closed one abandons its body and drops
 * the requests still waiting. An error is logged once, and the connection closed: a
 * peer that reset the connection is routine and logged at DEBUG only.
 */
final class DiscreteHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = LoggerFactory.getLogger(DiscreteHandler.class);

    /** What the JDK and Netty's native transport say of a peer that reset the connection or went away mid-write. */
    private static final Pattern PEER_RESET = Pattern.compile("connection reset|broken pipe", Pattern.CASE_INSENSITIVE);

    /** Pipelined requests that may wait for their turn before the connection is no longer read. */
    static final int MAX_WAITING = 16;

    private final DiscreteRouter router;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private Pending transfer;
    /** What a pump calls once its body is sent: made once per connection, not per request. */
    private Runnable transferDone;
    /** Whether a refused request was answered: its answer closes the connection, and nothing after it is. */
    private boolean ended;

    DiscreteHandler(DiscreteRouter router) {
        this.router = router;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (ended) {
            return;
        }
        waiting.add(request.retain());
        answerWaiting(ctx);
        if (waiting.size() >= MAX_WAITING) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    /**
     * Answers pipelined requests in order: each once the body before it is sent, and while the
     * channel is writable (a body from memory is written at once, so this is its backpressure).
     */
    private void answerWaiting(ChannelHandlerContext ctx) {
        FullHttpRequest next;
        while (transfer == null && ctx.channel().isActive() && ctx.channel().isWritable()
            && (next = waiting.poll()) != null) {
            try {
                if (transferDone == null) {
                    transferDone = () -> transferDone(ctx);
                }
                transfer = router.route(ctx, next, transferDone);
                if (transfer != null) {
                    transfer.pump();
                }
                ended = next.decoderResult().isFailure();
            } finally {
                next.release();
            }
            if (ended) {
                abandonAll();
                return;
            }
        }
        if (waiting.size() < MAX_WAITING && !ctx.channel().config().isAutoRead() && ctx.channel().isActive()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void transferDone(ChannelHandlerContext ctx) {
        transfer = null;
        answerWaiting(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            if (transfer != null) {
                transfer.pump();
            } else {
                answerWaiting(ctx);
            }
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        abandonAll();
        super.channelInactive(ctx);
    }

    /** Leaving the pipeline (a WebSocket upgrade) ends this handler's work as a close does. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        abandonAll();
    }

    private void abandonAll() {
        if (transfer != null) {
            transfer.abandon();
            transfer = null;
        }
        FullHttpRequest request;
        while ((request = waiting.poll()) != null) {
            request.release();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent && transfer == null) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        SocketAddress remote = ctx.channel().remoteAddress();
        if (peerReset(cause)) {
            LOG.debug("HTTP connection from {} reset by the peer: {}", remote, cause.getMessage());
        } else if (LOG.isDebugEnabled()) {
            LOG.warn("HTTP connection from {} closed on an error: {}", remote, cause.toString(), cause);
        } else {
            LOG.warn("HTTP connection from {} closed on an error: {}", remote, cause.toString());
        }
        ctx.close();
    }

    /** Whether an error says only that the peer reset the connection, or went away while being written to. */
    static boolean peerReset(Throwable cause) {
        return cause instanceof IOException && cause.getMessage() != null
            && PEER_RESET.matcher(cause.getMessage()).find();
    }
}

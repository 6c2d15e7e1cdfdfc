package io.rondo.server.admin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * An upload's body from one connection into its {@link Route.UploadSink}, with backpressure: the
 * connection's reads are paused while the upload runs, and the next piece is read only once the
 * sink has written the last one, so a connection holds a piece or two in memory whatever the
 * upload's size. Runs on the connection's event loop; the sink's futures hop back to it.
 */
final class UploadPump {

    /** What becomes of the upload, told on the event loop. */
    interface Listener {
        /** The body passed {@code maxBytes}: the pump is aborted, the request is to be refused. */
        void tooLarge(Problem problem);

        /** A write failed: the pump is aborted. */
        void failed(Throwable failure);

        /** The whole body is written: the sink's reply, or its failure. */
        void finished(ApiReply reply, Throwable failure);

        /** The sink answered before the body ended: the pump is aborted, the rest of the body dropped. */
        void answeredEarly(ApiReply reply, Throwable failure);
    }

    private final ChannelHandlerContext ctx;
    private final long maxBytes;
    private final Listener listener;
    private final ArrayDeque<HttpContent> pending = new ArrayDeque<>();
    private Route.UploadSink sink;
    private boolean writing;
    private boolean leaving;
    private long uploaded;

    /**
     * @param ctx      the connection's handler context
     * @param sink     where the body goes
     * @param maxBytes the largest body taken (admin.maxUpload)
     * @param listener told what becomes of the upload
     */
    UploadPump(ChannelHandlerContext ctx, Route.UploadSink sink, long maxBytes, Listener listener) {
        this.ctx = ctx;
        this.sink = sink;
        this.maxBytes = maxBytes;
        this.listener = listener;
    }

    /**
     * Pauses the connection's reads and asks for the body's first piece, which may not have come with
     * the head (a client waiting for 100 Continue); a sink that may answer early is heard from now on.
     */
    void start() {
        Route.UploadSink started = sink;
        CompletableFuture<ApiReply> early = started.answered();
        if (early != null) {
            early.whenComplete((reply, failure) -> ctx.executor().execute(() -> {
                if (sink == started) {
                    abort();
                    listener.answeredEarly(reply, failure);
                }
            }));
        }
        ctx.channel().config().setAutoRead(false);
        ctx.read();
    }

    /** Whether the upload still takes pieces: neither complete nor aborted. */
    boolean open() {
        return sink != null;
    }

    /** Takes a piece of the body (retaining it until it is written). */
    void offer(HttpContent content) {
        pending.add(content.retain());
        drain();
    }

    /** Writes the next piece once the last one is written; reads on when all are. */
    private void drain() {
        if (writing || sink == null) {
            return;
        }
        HttpContent next = pending.poll();
        if (next == null) {
            if (leaving) {
                abort();
            } else {
                ctx.read();
            }
            return;
        }
        boolean last = next instanceof LastHttpContent;
        uploaded += next.content().readableBytes();
        if (uploaded > maxBytes) {
            next.release();
            abort();
            listener.tooLarge(Problem.payloadTooLarge("the upload is larger than the limit of " + maxBytes
                + " bytes (admin.maxUpload)"));
            return;
        }
        writing = true;
        Route.UploadSink writingTo = sink;
        writingTo.write(next.content()).whenComplete((ignored, failure) -> ctx.executor().execute(() -> {
            writing = false;
            if (sink != writingTo) {
                return;
            }
            if (failure != null) {
                abort();
                listener.failed(failure);
            } else if (last) {
                sink = null;
                ctx.channel().config().setAutoRead(true);
                writingTo.finish().whenComplete((reply, error) -> ctx.executor().execute(
                    () -> listener.finished(reply, error)));
            } else {
                drain();
            }
        }));
    }

    /**
     * The client left mid-body, as a live stream's publisher does: the pieces that came before it
     * left are still written, then the upload is abandoned ({@link #abort}).
     */
    void left() {
        leaving = true;
        if (!writing && sink != null) {
            drain();
        }
    }

    /** Abandons the upload: what is pending is dropped, and the sink undoes what it wrote. */
    void abort() {
        Route.UploadSink abandoned = sink;
        sink = null;
        pending.forEach(HttpContent::release);
        pending.clear();
        if (abandoned != null) {
            abandoned.abort();
        }
    }
}

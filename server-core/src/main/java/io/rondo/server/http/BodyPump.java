package io.rondo.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import io.rondo.content.ingest.Directory;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.exec.BufferMemoryException;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.QueueFullException;

import java.util.ArrayList;
import java.util.List;

/**
 * A response body on its way, read from the disks a chunk at a time. What both pumps share: the
 * chunk comes back onto the event loop, at most one is being read at a time, and the object's
 * {@link Directory.Lease} is held until the body is done, so the object cannot be deleted under
 * the reader. Every path gives back what it holds: a failed read closes the connection, a closed
 * connection abandons the body, and a chunk that arrives for an abandoned body is released.
 *
 * <p>The answer's head, and any part header before the first byte read, is held until the first
 * read succeeds, so a first read that fails can still be answered with a status of its own: 503
 * with {@code Retry-After} when the server is short of room for it, a disk's or the generator's
 * queue full ({@link QueueFullException}) or the buffer memory taken ({@link BufferMemoryException}):
 * busy, try again shortly, or at another replica, as a balancer's {@code retry-on 503} does; 500
 * otherwise. A later read that fails
 * can only cut the body short, and closes the connection.
 */
abstract class BodyPump implements Pending {

    final ChannelHandlerContext ctx;
    final MediaObject object;
    final Body body;
    private final boolean keepAlive;
    private final Directory.Lease lease;
    private final ChunkReader reads;
    private final Runnable done;
    private boolean reading;
    private boolean abandoned;
    /** What is written before the first byte read: null once that byte has come and they are sent. */
    private List<HttpObject> held = new ArrayList<>(2);

    /**
     * @param answer the answer, head and body: both this pump's to send
     * @param done   called once the body's last byte is written
     */
    BodyPump(ChannelHandlerContext ctx, Directory.Lease lease, ObjectResponse answer, ChunkReader reads,
             Runnable done) {
        this.ctx = ctx;
        this.object = lease.object();
        this.body = answer.body();
        this.keepAlive = answer.keepAlive();
        this.lease = lease;
        this.reads = reads;
        this.done = done;
        held.add(answer.head());
    }

    /** Writes part of the answer, or holds it until the first read has succeeded. */
    final void write(HttpObject message) {
        if (held != null) {
            held.add(message);
        } else {
            ctx.write(message);
        }
    }

    @Override
    public abstract void pump();

    /** A chunk read for this body; its buffer is this method's to release. */
    abstract void arrived(Chunk chunk);

    /** Whether the pump may ask for the next chunk: none is being read, and the connection is still there. */
    final boolean idle() {
        return !reading && !abandoned;
    }

    /** Reads the next chunk of the object; it arrives on the event loop. */
    final void read(long offset, int want) {
        reading = true;
        reads.read(object, offset, want).whenCompleteAsync(this::completed, ctx.executor());
    }

    private void completed(Chunk chunk, Throwable error) {
        reading = false;
        if (abandoned || error != null || chunk.data().remaining() == 0) {
            if (chunk != null) {
                chunk.release();
            }
            if (!abandoned) {
                lease.close();
                released();
                if (held != null) {
                    refuse(error);
                } else {
                    ctx.close();
                }
            }
            return;
        }
        if (held != null) {
            held.forEach(ctx::write);
            held = null;
        }
        arrived(chunk);
    }

    /**
     * The first read failed, so nothing of the answer is written yet: 503 with Retry-After if the
     * disks were too busy to take it or no buffer memory was left for it (the connection kept as the
     * request asked, and the next request goes on), 500 and the connection closed otherwise.
     */
    private void refuse(Throwable error) {
        dropHeld();
        if (error instanceof QueueFullException || error instanceof BufferMemoryException) {
            FullHttpResponse response = HttpResponses.text(HttpResponseStatus.SERVICE_UNAVAILABLE,
                error instanceof QueueFullException ? "the disks are busy: try again in a moment"
                    : "the server's buffer memory is taken: try again in a moment");
            response.headers().set(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
            HttpUtil.setKeepAlive(response, keepAlive);
            HttpResponses.end(ctx, response, keepAlive);
            done.run();
        } else {
            FullHttpResponse response = HttpResponses.text(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                "the object could not be read");
            HttpUtil.setKeepAlive(response, false);
            HttpResponses.end(ctx, response, false);
        }
    }

    /** Seconds a client refused for busy disks is asked to wait: about a round, in which the queues drain. */
    static final int RETRY_AFTER_SECONDS = 1;

    private void dropHeld() {
        if (held != null) {
            held.forEach(ReferenceCountUtil::release);
            held = null;
        }
    }

    /** Every byte of the body is written: the last content, the lease back, and the next request may go. */
    final void finish() {
        lease.close();
        HttpResponses.end(ctx, keepAlive);
        done.run();
    }

    /** The connection closed: stop, and give the lease back. */
    @Override
    public final void abandon() {
        abandoned = true;
        dropHeld();
        lease.close();
        released();
    }

    /** The body will not be finished (a failed read, a closed connection): give back what the pump holds. */
    void released() {
    }
}

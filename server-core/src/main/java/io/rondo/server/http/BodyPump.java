package io.rondo.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.rondo.content.ingest.Directory;
import io.rondo.content.model.MediaObject;
import io.rondo.server.runtime.Chunk;

/**
 * A response body on its way, read from the disks a chunk at a time. What both pumps share: the
 * chunk comes back onto the event loop, at most one is being read at a time, and the object's
 * {@link Directory.Lease} is held until the body is done, so the object cannot be deleted under
 * the reader. Every path gives back what it holds: a failed read closes the connection, a closed
 * connection abandons the body, and a chunk that arrives for an abandoned body is released.
 */
abstract class BodyPump {

    final ChannelHandlerContext ctx;
    final MediaObject object;
    final Body body;
    private final boolean keepAlive;
    private final Directory.Lease lease;
    private final ChunkReader reads;
    private final Runnable done;
    private boolean reading;
    private boolean abandoned;

    /**
     * @param answer the head already written; its body is this pump's to send
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
    }

    /** Goes on: called to start, and again once the channel is writable. */
    abstract void pump();

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
                ctx.close();
            }
            return;
        }
        arrived(chunk);
    }

    /** Every byte of the body is written: the last content, the lease back, and the next request may go. */
    final void finish() {
        lease.close();
        HttpResponses.end(ctx, keepAlive);
        done.run();
    }

    /** The connection closed: stop, and give the lease back. */
    final void abandon() {
        abandoned = true;
        lease.close();
        released();
    }

    /** The body will not be finished (a failed read, a closed connection): give back what the pump holds. */
    void released() {
    }
}

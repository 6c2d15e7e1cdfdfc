package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.rondo.content.ingest.Directory;
import io.rondo.server.runtime.Chunk;

/**
 * The body of an object not yet in {@link HotObjects}: the object is read whole, in order, a
 * chunk at a time (D-requests through the disk's scheduler, one for an object up to
 * {@code scheduler.maxRead}), into one buffer that becomes the cache's entry once full, so the
 * next answer for it reads no disk. The body is written from that buffer as its bytes arrive,
 * slices of it with no copy, so the first bytes of a large object go out before its last is read;
 * the next chunk is asked for only while the channel is writable. The client gets the same bytes
 * as from a {@link TransferPump}, whole, ranges and multipart alike. It is made only for the fill
 * it claimed ({@link HotObjects#claimFill}); every end gives the claim back.
 */
final class FillPump extends BodyPump {

    private final HotObjects hot;
    /** The object's bytes read so far; null once handed to the cache or given back. */
    private ByteBuf bytes;
    private int segment;
    /** Bytes of the current segment written so far. */
    private long into;

    FillPump(ChannelHandlerContext ctx, Directory.Lease lease, ObjectResponse answer, ChunkReader reads,
             Runnable done, HotObjects hot) {
        super(ctx, lease, answer, reads, done);
        this.hot = hot;
        this.bytes = HotObjects.allocate(object);
    }

    @Override
    public void pump() {
        if (bytes == null) {
            return;
        }
        writeArrived();
        if (segment == body.segments().size()) {
            ByteBuf whole = bytes;
            bytes = null;
            hot.put(object, whole);
            finish();
            return;
        }
        if (idle() && ctx.channel().isWritable()) {
            read(bytes.writerIndex(), bytes.writableBytes());
        }
        ctx.flush();
    }

    /** Writes the body's segments as far as the bytes read so far reach. */
    private void writeArrived() {
        while (segment < body.segments().size()) {
            Body.Segment current = body.segments().get(segment);
            if (current.isLiteral()) {
                write(new DefaultHttpContent(Unpooled.wrappedBuffer(current.literal())));
                segment++;
                continue;
            }
            long from = current.offset() + into;
            long ready = Math.min(current.offset() + current.length(), bytes.writerIndex()) - from;
            if (ready > 0) {
                ctx.write(new DefaultHttpContent(bytes.retainedSlice((int) from, (int) ready)));
                into += ready;
            }
            if (into < current.length()) {
                return;
            }
            segment++;
            into = 0;
        }
    }

    @Override
    void arrived(Chunk chunk) {
        if (bytes == null) {
            chunk.release();
            return;
        }
        int read = Math.min(chunk.data().remaining(), bytes.writableBytes());
        chunk.data().limit(chunk.data().position() + read);
        bytes.writeBytes(chunk.data());
        chunk.release();
        pump();
    }

    @Override
    void released() {
        if (bytes != null) {
            bytes.release();
            bytes = null;
            hot.abandonFill(object);
        }
    }
}

package io.rondo.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.rondo.content.ingest.Directory;
import io.rondo.server.runtime.Chunk;

/**
 * The body of a small object not yet in {@link HotObjects}: the object is read whole, a chunk at
 * a time (one D-request for an object up to {@code scheduler.maxRead}), the body is written
 * from those bytes, and they are cached, so the next answer for it reads no disk. The client gets
 * the same bytes as from a {@link TransferPump}, whole, ranges and multipart alike.
 */
final class FillPump extends BodyPump {

    private final HotObjects hot;
    private final byte[] bytes;
    private int filled;

    FillPump(ChannelHandlerContext ctx, Directory.Lease lease, ObjectResponse answer, ChunkReader reads,
             Runnable done, HotObjects hot) {
        super(ctx, lease, answer, reads, done);
        this.hot = hot;
        this.bytes = new byte[(int) object.size()];
    }

    @Override
    void pump() {
        if (idle()) {
            read(filled, bytes.length - filled);
        }
    }

    @Override
    void arrived(Chunk chunk) {
        int read = Math.min(chunk.data().remaining(), bytes.length - filled);
        chunk.data().get(bytes, filled, read);
        chunk.release();
        filled += read;
        if (filled < bytes.length) {
            pump();
            return;
        }
        body.writeFrom(bytes, ctx);
        hot.put(object, bytes);
        finish();
    }
}

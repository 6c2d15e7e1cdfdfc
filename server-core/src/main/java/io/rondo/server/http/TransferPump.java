package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.rondo.content.ingest.Directory;
import io.rondo.server.runtime.Chunk;

/**
 * A body sent as it is read: each chunk written when it arrives, the next asked for only while
 * the channel is writable, so a connection holds at most one chunk being read and the chunks
 * Netty has not yet written, however large the object and however slow the client. Each chunk's
 * buffer goes back to the pool when its write completes.
 */
final class TransferPump extends BodyPump {

    private int segment;
    /** Bytes of the current segment written so far. */
    private long into;

    TransferPump(ChannelHandlerContext ctx, Directory.Lease lease, ObjectResponse answer, ChunkReader reads,
                 Runnable done) {
        super(ctx, lease, answer, reads, done);
    }

    @Override
    public void pump() {
        while (idle() && ctx.channel().isWritable()) {
            if (segment == body.segments().size()) {
                finish();
                return;
            }
            Body.Segment current = body.segments().get(segment);
            if (current.isLiteral()) {
                write(new DefaultHttpContent(Unpooled.wrappedBuffer(current.literal())));
                segment++;
                continue;
            }
            read(current.offset() + into, (int) Math.min(Integer.MAX_VALUE, current.length() - into));
        }
        ctx.flush();
    }

    @Override
    void arrived(Chunk chunk) {
        ByteBuf bytes = Unpooled.wrappedBuffer(chunk.data());
        int read = bytes.readableBytes();
        ctx.write(new DefaultHttpContent(bytes)).addListener(future -> chunk.release());
        into += read;
        if (into == body.segments().get(segment).length()) {
            segment++;
            into = 0;
        }
        pump();
    }
}

package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.FrameCodec;

import java.nio.ByteBuffer;

/**
 * One stream's DATA frames (docs/stream-protocol.md): numbered in the order they go, each a small
 * prefix (the header and the fragment's fields) in front of the fragment's bytes, which are
 * wrapped where the disk read them and never copied. Event loop only.
 */
final class DataFrameEncoder {

    private long sequence;

    /**
     * The next DATA frame: the prefix, then {@code payload} in place. The caller releases the
     * payload's buffer once the frame is written.
     *
     * @param fragment      the fragment's index
     * @param startNs       the fragment's presentation time
     * @param deadlineNs    when it is due, from ACCEPT
     * @param discontinuity whether it answers a SEEK
     * @param payload       the fragment's bytes
     */
    ByteBuf encode(int fragment, long startNs, long deadlineNs, boolean discontinuity, ByteBuffer payload) {
        Data data = new Data(sequence++, fragment, startNs, deadlineNs, discontinuity, payload);
        ByteBuffer prefix = ByteBuffer.allocate(FrameCodec.DATA_PREFIX_LENGTH);
        FrameCodec.encodeDataPrefix(data, prefix);
        prefix.flip();
        return Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(prefix), Unpooled.wrappedBuffer(payload));
    }
}

package io.rondo.server.live;

import io.rondo.scheduler.device.AlignedBuffers;
import io.rondo.scheduler.device.DiskIo;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The aligned write of one round of a recording (direct IO takes whole blocks only): the partial
 * block already on the disk at the durable end, rewritten with the same bytes, then the fragments
 * cut since, then zeros to the next block boundary, which the next round's write overwrites. One
 * direct buffer, reused round after round, grown when a round needs more. Used under its
 * recording's lock.
 */
final class AlignedWrite {

    private ByteBuffer buffer;
    /** The bytes of the partial block at the durable end, already on the disk. */
    private byte[] tail = new byte[0];

    /** @param expectedBytes the bytes a round's write usually takes, to size the buffer once */
    AlignedWrite(long expectedBytes) {
        buffer = AlignedBuffers.allocate(alignUp(Math.max(DiskIo.ALIGNMENT, expectedBytes) + DiskIo.ALIGNMENT));
    }

    /** Where the next write starts in the file: the block holding the durable end. */
    static long startOf(long durableEnd) {
        return durableEnd - Math.floorMod(durableEnd, DiskIo.ALIGNMENT);
    }

    /**
     * The buffer to write at {@link #startOf}({@code durableEnd}): the tail, the fragments' bytes,
     * zeros to a block boundary; positioned at 0, limited at its aligned length.
     */
    ByteBuffer fill(long durableEnd, List<byte[]> fragments) {
        long bytes = tail.length;
        for (byte[] fragment : fragments) {
            bytes += fragment.length;
        }
        int span = alignUp(bytes);
        if (span > buffer.capacity()) {
            buffer = AlignedBuffers.allocate(alignUp(span + (long) span / 2));
        }
        if (tail.length != durableEnd - startOf(durableEnd)) {
            throw new IllegalStateException("the recording's tail holds " + tail.length + " bytes, its durable end "
                + "is " + durableEnd);
        }
        buffer.clear();
        buffer.put(tail);
        for (byte[] fragment : fragments) {
            buffer.put(fragment);
        }
        while (buffer.position() < span) {
            buffer.put((byte) 0);
        }
        buffer.flip();
        return buffer;
    }

    /** The write ending at {@code newEnd} reached the disk: keep the partial block it ends in. */
    void written(long newEnd, long writeStart) {
        int keep = Math.floorMod(newEnd, DiskIo.ALIGNMENT);
        byte[] next = new byte[keep];
        int from = (int) (newEnd - keep - writeStart);
        buffer.duplicate().position(from).get(next);
        tail = next;
    }

    private static int alignUp(long bytes) {
        return Math.toIntExact((bytes + DiskIo.ALIGNMENT - 1) / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT);
    }
}

package io.rondo.scheduler.admission;

import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.exec.BufferPool;

import java.util.ArrayList;
import java.util.List;

/**
 * What a stream's client lets the server save in buffer memory (papers/004 Sections 4 and 5):
 * the {@link BufferMode} it got, and, for a mode that shares, the numbers its bound is made of.
 *
 * @param mode             how its buffers are reserved
 * @param bufferBytes      the capacity of one of its buffers (the pool's size class of its largest
 *                         fragment); 0 for {@link BufferMode#DOUBLE}, charged at its peak fragment
 * @param holdNs           the longest one of its fragments may be held after its read ends: its
 *                         send at the client's declared rate, plus the server's grace; past it the
 *                         stream loses its place (the guard), so a fragment is never held longer
 * @param readSizes        the sizes its reads read, each the least of its fragments lent a buffer of one
 *                         size class (a buffer's capacity over the fastest read of the least fragment
 *                         it is lent for is the fastest a disk fills such buffers)
 */
public record ClientBuffers(BufferMode mode, long bufferBytes, long holdNs, List<Long> readSizes) {

    /** Double buffering: nothing shared, nothing to bound. */
    public static final ClientBuffers DOUBLE = new ClientBuffers(BufferMode.DOUBLE, 0, 0, List.of());

    public ClientBuffers {
        readSizes = List.copyOf(readSizes);
        if (mode != BufferMode.DOUBLE && (bufferBytes <= 0 || holdNs <= 0 || readSizes.isEmpty()
            || readSizes.stream().anyMatch(size -> size <= 0))) {
            throw new IllegalArgumentException(mode + " needs a buffer size, a hold time and positive read sizes, "
                + "were " + bufferBytes + " B, " + holdNs + " ns and " + readSizes);
        }
    }

    /**
     * The same client's buffers for reads of {@code fragments} fragments at once (a longer time
     * cycle, or a combined stream): buffers of that many fragments, held that many times as long
     * (sent at the same rate), reads that many times as large.
     */
    public ClientBuffers times(int fragments) {
        if (fragments == 1 || mode == BufferMode.DOUBLE) {
            return this;
        }
        List<Long> sizes = new ArrayList<>();
        for (long size : readSizes) {
            sizes.add(size * fragments);
        }
        long most = (bufferBytes - 2L * DiskIo.ALIGNMENT) * fragments + 2L * DiskIo.ALIGNMENT;
        return new ClientBuffers(mode, BufferPool.classCapacity((int) Math.min(1 << 30, Math.max(1, most))),
            holdNs * fragments, sizes);
    }
}

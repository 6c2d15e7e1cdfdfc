package io.rondo.scheduler.device;

import java.nio.ByteBuffer;

/**
 * Direct buffers that O_DIRECT accepts: their address and capacity are multiples of
 * {@link DiskIo#ALIGNMENT}. {@code ByteBuffer.allocateDirect} promises no alignment, so a little
 * more is allocated and the aligned part sliced out.
 */
public final class AlignedBuffers {

    /** The largest capacity that still fits an int once the alignment slack is added. */
    static final int MAX_CAPACITY = (Integer.MAX_VALUE - DiskIo.ALIGNMENT + 1) / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT;

    private AlignedBuffers() {
    }

    /**
     * A direct buffer of at least {@code capacity} bytes, rounded up to the alignment, whose first
     * byte is aligned.
     */
    public static ByteBuffer allocate(int capacity) {
        if (capacity < 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("cannot allocate an aligned buffer of " + capacity + " bytes (0 to "
                + MAX_CAPACITY + ")");
        }
        int rounded = (capacity + DiskIo.ALIGNMENT - 1) / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT;
        return ByteBuffer.allocateDirect(rounded + DiskIo.ALIGNMENT - 1).alignedSlice(DiskIo.ALIGNMENT);
    }
}

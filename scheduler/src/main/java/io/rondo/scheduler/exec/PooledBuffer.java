package io.rondo.scheduler.exec;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An aligned direct buffer lent by a {@link BufferPool}. Whoever holds it returns it exactly once
 * with {@link #release()}; a second release is a bug and throws.
 */
public final class PooledBuffer {

    private final BufferPool pool;
    private final ByteBuffer buffer;
    private final int sizeClass;
    private final long streamId;
    private final boolean fromShared;
    private final AtomicBoolean released = new AtomicBoolean();

    PooledBuffer(BufferPool pool, ByteBuffer buffer, int sizeClass, long streamId, boolean fromShared) {
        this.pool = pool;
        this.buffer = buffer;
        this.sizeClass = sizeClass;
        this.streamId = streamId;
        this.fromShared = fromShared;
    }

    /** The buffer, cleared: position 0, limit at its capacity. */
    public ByteBuffer buffer() {
        return buffer;
    }

    public int capacity() {
        return buffer.capacity();
    }

    int sizeClass() {
        return sizeClass;
    }

    /** The stream this buffer is accounted to, or {@link BufferPool#NO_STREAM}. */
    long streamId() {
        return streamId;
    }

    /** Whether the buffer is drawn on its stream's shared account rather than on the stream's own buffers. */
    boolean fromShared() {
        return fromShared;
    }

    /** Whether the buffer went back to its pool. Any thread. */
    public boolean released() {
        return released.get();
    }

    /** Gives the buffer back to its pool. */
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("a pooled buffer of " + capacity() + " bytes was released twice");
        }
        pool.giveBack(this);
    }
}

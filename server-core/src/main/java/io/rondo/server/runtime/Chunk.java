package io.rondo.server.runtime;

import io.rondo.scheduler.exec.PooledBuffer;

import java.nio.ByteBuffer;

/**
 * Bytes read from a disk: {@code data} is a view of {@code buffer}, which goes back to the pool
 * with {@link #release()} once the bytes are sent. Exactly one release per chunk. A live
 * recording's newest fragments come from the recorder's memory instead ({@link #inMemory}),
 * with no pooled buffer behind them.
 */
public record Chunk(ByteBuffer data, PooledBuffer buffer) {

    /** Bytes a recorder holds in memory: nothing to give back. */
    public static Chunk inMemory(ByteBuffer data) {
        return new Chunk(data, null);
    }

    public void release() {
        if (buffer != null) {
            buffer.release();
        }
    }
}

package io.rondo.server.runtime;

import io.rondo.scheduler.exec.PooledBuffer;

import java.nio.ByteBuffer;

/**
 * Bytes read from a disk: {@code data} is a view of {@code buffer}, which goes back to the pool
 * with {@link #release()} once the bytes are sent. Exactly one release per chunk.
 */
public record Chunk(ByteBuffer data, PooledBuffer buffer) {

    public void release() {
        buffer.release();
    }
}

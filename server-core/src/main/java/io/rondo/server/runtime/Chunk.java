package io.rondo.server.runtime;

import io.rondo.scheduler.exec.PooledBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bytes read from a disk: {@code data} is a view of a pooled buffer, which goes back to the pool
 * once the bytes are sent ({@link #release()}, exactly once per chunk). A live recording's newest
 * fragments come from the recorder's memory instead ({@link #inMemory}), with nothing to give back.
 * One read of several fragments is cut into a chunk per fragment ({@link #split}): the buffer goes
 * back once every piece is released.
 *
 * @param data    the bytes
 * @param onRelease what giving them back does, or null for nothing
 */
public record Chunk(ByteBuffer data, Runnable onRelease) {

    /** Bytes in {@code buffer}, which goes back to its pool on release. */
    public static Chunk of(ByteBuffer data, PooledBuffer buffer) {
        return new Chunk(data, buffer::release);
    }

    /** Bytes a recorder holds in memory: nothing to give back. */
    public static Chunk inMemory(ByteBuffer data) {
        return new Chunk(data, null);
    }

    public void release() {
        if (onRelease != null) {
            onRelease.run();
        }
    }

    /**
     * These bytes cut into consecutive pieces of {@code lengths} (adding up to all of them), each
     * released on its own; this chunk's own release runs when the last piece is released.
     */
    public Chunk[] split(long[] lengths) {
        Chunk[] pieces = new Chunk[lengths.length];
        AtomicInteger unreleased = new AtomicInteger(lengths.length);
        Runnable piece = () -> {
            if (unreleased.decrementAndGet() == 0) {
                release();
            }
        };
        int from = data.position();
        for (int i = 0; i < lengths.length; i++) {
            int to = Math.toIntExact(from + lengths[i]);
            if (to > data.limit()) {
                throw new IllegalArgumentException("pieces of " + java.util.Arrays.toString(lengths)
                    + " bytes do not fit a chunk of " + data.remaining());
            }
            pieces[i] = new Chunk(data.duplicate().limit(to).position(from).slice(), piece);
            from = to;
        }
        return pieces;
    }
}

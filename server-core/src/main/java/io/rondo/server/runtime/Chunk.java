package io.rondo.server.runtime;

import io.rondo.scheduler.exec.PooledBuffer;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bytes read from a disk: {@link #data()} is a view of a pooled buffer, which goes back to the pool
 * once the bytes are sent ({@link #release()}, exactly once per chunk). A live recording's newest
 * fragments come from the recorder's memory instead ({@link #inMemory}), with nothing to give back.
 * One read of several fragments is cut into a chunk per fragment ({@link #split}): the buffer goes
 * back once every piece is released.
 */
public final class Chunk {

    private final ByteBuffer data;
    private final boolean pooled;
    private final Runnable onRelease;
    private final AtomicBoolean released = new AtomicBoolean();

    private Chunk(ByteBuffer data, boolean pooled, Runnable onRelease) {
        this.data = data;
        this.pooled = pooled;
        this.onRelease = onRelease;
    }

    /** Bytes in {@code buffer}, which goes back to its pool on release. */
    public static Chunk of(ByteBuffer data, PooledBuffer buffer) {
        return new Chunk(data, true, buffer::release);
    }

    /** Bytes a recorder holds in memory: nothing to give back. */
    public static Chunk inMemory(ByteBuffer data) {
        return new Chunk(data, false, () -> { });
    }

    /** The bytes. */
    public ByteBuffer data() {
        return data;
    }

    /** Whether a pooled buffer holds them (else a recorder's memory). */
    public boolean pooled() {
        return pooled;
    }

    /** Whether they were let go. */
    public boolean released() {
        return released.get();
    }

    /** Lets the bytes go: the buffer back to its pool, once every piece of its read is let go. */
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("a chunk of " + data.capacity() + " bytes was released twice");
        }
        onRelease.run();
    }

    /**
     * These bytes cut into consecutive pieces of {@code lengths} (adding up to all of them), each
     * released on its own; this chunk is released when the last piece is.
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
                throw new IllegalArgumentException("pieces of " + Arrays.toString(lengths) + " bytes do not fit a "
                    + "chunk of " + data.remaining());
            }
            pieces[i] = new Chunk(data.duplicate().limit(to).position(from).slice(), pooled, piece);
            from = to;
        }
        return pieces;
    }
}

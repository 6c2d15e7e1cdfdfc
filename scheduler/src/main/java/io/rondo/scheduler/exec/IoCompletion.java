package io.rondo.scheduler.exec;

import io.rondo.scheduler.DiskRequest;

import java.nio.ByteBuffer;

/** Told by a disk executor, on its own thread, how a read went. Must return quickly. */
public interface IoCompletion {

    /**
     * The read is done: {@code data} holds exactly the bytes asked for (fewer at the end of the
     * file), a view of {@code buffer}, which the receiver must {@link PooledBuffer#release()} once
     * it has sent them. Both are null for an IO with no file behind it.
     */
    void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs);

    /** The read failed; {@code error} says why. */
    void failed(DiskRequest request, Exception error, long failedNs);
}

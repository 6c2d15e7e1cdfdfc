package io.rondo.server.runtime;

import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.exec.IoCompletion;
import io.rondo.scheduler.exec.PooledBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * What a read's completion does, on the disk's executor thread: complete a future with the bytes
 * or the failure. Whoever waits on the future continues on a thread of its own.
 */
final class Completions {

    private Completions() {
    }

    /** Completes {@code result} with the bytes read, or with the failure. */
    static IoCompletion of(CompletableFuture<Chunk> result) {
        return of(result, () -> { });
    }

    /** As {@link #of(CompletableFuture)}, telling {@code done} first that the read is over. */
    static IoCompletion of(CompletableFuture<Chunk> result, Runnable done) {
        return new IoCompletion() {
            @Override
            public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                done.run();
                if (!result.complete(Chunk.of(data, buffer))) {
                    buffer.release();
                }
            }

            @Override
            public void failed(DiskRequest request, Exception error, long failedNs) {
                done.run();
                result.completeExceptionally(error);
            }
        };
    }

    /** Completes {@code result} when a write is done (forced, if it asked to be), or with the failure. */
    static IoCompletion written(CompletableFuture<Void> result) {
        return new IoCompletion() {
            @Override
            public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                result.complete(null);
            }

            @Override
            public void failed(DiskRequest request, Exception error, long failedNs) {
                result.completeExceptionally(error);
            }
        };
    }

    /** A completion that first records the response time, arrival to completion, in the disk's watch. */
    static IoCompletion timed(RuntimeDisk disk, long arrivalNs, IoCompletion completion) {
        return new IoCompletion() {
            @Override
            public void completed(DiskRequest done, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                disk.watch().discreteAnswered(completedNs - arrivalNs);
                completion.completed(done, data, buffer, completedNs);
            }

            @Override
            public void failed(DiskRequest done, Exception error, long failedNs) {
                completion.failed(done, error, failedNs);
            }
        };
    }
}

package io.rondo.server.http;

import io.netty.channel.embedded.EmbeddedChannel;
import io.rondo.content.model.MediaObject;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.DiskRuntime;

import java.time.Duration;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.awaitility.Awaitility.await;

/**
 * Reads through the real disks, and hands each chunk on from the test's own thread: an embedded
 * channel's event loop is the test's thread and takes tasks from no other, so a chunk completed
 * on a disk's executor waits here until the test delivers it, in the order the disks read them.
 */
final class HandedChunks implements ChunkReader {

    private final DiskRuntime disks;
    private final Queue<Runnable> read = new ConcurrentLinkedQueue<>();
    private int asked;
    private int delivered;

    HandedChunks(DiskRuntime disks) {
        this.disks = disks;
    }

    @Override
    public CompletableFuture<Chunk> read(MediaObject object, long offset, int maxBytes) {
        asked++;
        CompletableFuture<Chunk> handed = new CompletableFuture<>();
        disks.read(object, offset, maxBytes).whenComplete((chunk, error) -> read.add(() -> {
            if (error != null) {
                handed.completeExceptionally(error);
            } else {
                handed.complete(chunk);
            }
        }));
        return handed;
    }

    /** Waits for the next chunk a disk read, and hands it to the channel's event loop. */
    void deliverNext(EmbeddedChannel channel) {
        Runnable next = await("a chunk from a disk").atMost(Duration.ofSeconds(10)).until(read::poll, Objects::nonNull);
        delivered++;
        next.run();
        channel.runPendingTasks();
    }

    /** Reads asked for so far. */
    int asked() {
        return asked;
    }

    /** Reads asked for and not yet delivered. */
    int inFlight() {
        return asked - delivered;
    }
}

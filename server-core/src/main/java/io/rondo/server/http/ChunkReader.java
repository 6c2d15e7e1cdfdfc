package io.rondo.server.http;

import io.rondo.content.model.MediaObject;
import io.rondo.server.runtime.Chunk;
import io.rondo.server.runtime.DiskRuntime;

import java.util.concurrent.CompletableFuture;

/**
 * Where a body's bytes come from: {@link DiskRuntime#read}, one D-request through the disk's
 * scheduler, completed on a disk's executor thread, never on the event loop. A seam of its own
 * because a handler test on an embedded channel must hand each chunk to that channel's event loop
 * from the test's thread: the embedded loop takes tasks from no other.
 */
@FunctionalInterface
interface ChunkReader {

    /** Reads up to {@code maxBytes} of {@code object} from {@code offset}; the chunk is the caller's to release. */
    CompletableFuture<Chunk> read(MediaObject object, long offset, int maxBytes);
}

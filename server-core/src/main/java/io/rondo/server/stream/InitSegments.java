package io.rondo.server.stream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.rondo.content.model.MediaObject;
import io.rondo.server.runtime.DiskRuntime;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The init segments ACCEPT carries, kept for the objects streamed lately: a new stream of one of
 * them waits only for its own fragments, and the disk reads each init segment about once. A kept
 * segment counts only while its object's content is the one it was read from (its ETag); the least
 * recently used object's goes first. Thread-safe: every stream's event loop asks.
 */
final class InitSegments {

    /** An object's init segment as read, and the content version it belongs to. */
    private record Kept(String etag, byte[] bytes) {
    }

    /** Init segments by object id. */
    private final Cache<Long, Kept> kept;

    /** @param objects how many objects' init segments stay in memory */
    InitSegments(int objects) {
        this.kept = Caffeine.newBuilder().maximumSize(objects).build();
    }

    /**
     * An object's init segment: at once if it is kept (or empty), else read from its disk as one
     * D-request and kept. The read's future completes on {@code eventLoop}; it fails with the
     * read's failure, or when fewer bytes came than the init segment holds.
     */
    CompletableFuture<byte[]> fetch(MediaObject object, DiskRuntime disks, Executor eventLoop) {
        long length = object.media().init().length();
        Kept known = kept.getIfPresent(object.id());
        if (known != null && known.etag().equals(object.etag())) {
            return CompletableFuture.completedFuture(known.bytes());
        }
        if (length == 0) {
            return CompletableFuture.completedFuture(new byte[0]);
        }
        return disks.read(object, 0, (int) Math.min(length, disks.maxReadBytes())).thenApplyAsync(chunk -> {
            try {
                if (chunk.data().remaining() < length) {
                    throw new CompletionException(new IOException("the init segment of " + object.name()
                        + " is " + length + " bytes; " + chunk.data().remaining() + " were read"));
                }
                byte[] bytes = new byte[chunk.data().remaining()];
                chunk.data().duplicate().get(bytes);
                kept.put(object.id(), new Kept(object.etag(), bytes));
                return bytes;
            } finally {
                chunk.release();
            }
        }, eventLoop);
    }
}

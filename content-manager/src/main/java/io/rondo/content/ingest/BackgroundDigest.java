package io.rondo.content.ingest;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A message digest computed on a thread of its own, so that ingest's copy (remuxing, writing)
 * does not wait for the hash of what it copies: the bytes gather in one of two buffers, and a full
 * one is hashed on the digest's thread while the copy fills the other. The order of the bytes is
 * kept, so the result is the digest of everything {@link #update}d, as one thread would compute it.
 *
 * <p>Used by one copying thread at a time; {@link #digest} (or {@link #close}) ends its thread.
 */
public final class BackgroundDigest implements AutoCloseable {

    /** The bytes one hand-over carries. */
    static final int BUFFER_BYTES = 1 << 20;

    private final MessageDigest digest;
    private final ExecutorService thread;
    private final ByteBuffer[] buffers = {ByteBuffer.allocate(BUFFER_BYTES), ByteBuffer.allocate(BUFFER_BYTES)};
    private int filling;
    private Future<?> hashing;

    /** A background digest with the algorithm of {@code digest}, which it takes over. */
    public BackgroundDigest(MessageDigest digest) {
        this.digest = digest;
        this.thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "rondo-ingest-digest");
            t.setDaemon(true);
            return t;
        });
    }

    /** Adds the remaining bytes of {@code src} to the digest; {@code src}'s position is left as it was. */
    public void update(ByteBuffer src) throws IOException {
        ByteBuffer view = src.duplicate();
        while (view.hasRemaining()) {
            ByteBuffer buffer = buffers[filling];
            int n = Math.min(buffer.remaining(), view.remaining());
            ByteBuffer part = view.duplicate();
            part.limit(part.position() + n);
            buffer.put(part);
            view.position(view.position() + n);
            if (!buffer.hasRemaining()) {
                handOver();
            }
        }
    }

    /** The digest of every byte given, in order; ends the digest's thread. */
    public byte[] digest() throws IOException {
        handOver();
        await();
        thread.shutdown();
        return digest.digest();
    }

    private void handOver() throws IOException {
        await();
        ByteBuffer full = buffers[filling].flip();
        filling = 1 - filling;
        buffers[filling].clear();
        hashing = thread.submit(() -> digest.update(full));
    }

    private void await() throws IOException {
        if (hashing == null) {
            return;
        }
        try {
            hashing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the ingest digest was computed");
        } catch (ExecutionException e) {
            throw new IOException("the ingest digest failed: " + e.getCause(), e.getCause());
        } finally {
            hashing = null;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}

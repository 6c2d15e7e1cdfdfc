package io.rondo.content.ingest;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/**
 * A new file written sequentially past the page cache (O_DIRECT), for ingest's copies: the bytes
 * given gather in one of two aligned buffers, and a full one is written by this file's own writer
 * thread while the caller fills the other. {@link #close()} waits for the writes, rethrowing their
 * {@link IOException}, writes the last partial block padded to the alignment, cuts the file to the
 * bytes given and forces it to the device. Memory is two buffers whatever the file's size; the
 * second is only allocated once the first is full.
 *
 * <p>Where the file system refuses O_DIRECT (tmpfs, some overlay file systems: on open, or with
 * EINVAL on the first write) the same bytes go through the page cache instead, forced at close:
 * slower, equally correct. {@link #isDirect()} says which.
 */
public final class DirectFileWriter implements WritableByteChannel {

    /** The default size of each of the two buffers. */
    public static final int DEFAULT_BUFFER_BYTES = 4 << 20;

    private static final int MIN_ALIGNMENT = 4096;

    /** Writes one block at a file position; the writer thread's only way to the file. */
    @FunctionalInterface
    interface BlockSink {
        void write(ByteBuffer block, long position) throws IOException;
    }

    private final Path path;
    private final FileChannel plain;
    private final int alignment;
    private final int bufferBytes;
    private final UnaryOperator<BlockSink> faults;
    private final ByteBuffer[] buffers = new ByteBuffer[2];
    private final ExecutorService writer;
    private volatile FileChannel direct;
    private Future<?> pending;
    private IOException failure;
    private int filling;
    private long handed;
    private boolean open = true;

    /** Creates {@code path} (which must not exist), written O_DIRECT where its file system allows. */
    public DirectFileWriter(Path path) throws IOException {
        this(path, DEFAULT_BUFFER_BYTES, true);
    }

    /**
     * Creates {@code path} (which must not exist).
     *
     * @param bufferBytes the size of each of the two buffers, rounded up to the alignment
     * @param tryDirect   false to write through the page cache whatever the file system allows
     */
    public DirectFileWriter(Path path, int bufferBytes, boolean tryDirect) throws IOException {
        this(path, bufferBytes, tryDirect, UnaryOperator.identity());
    }

    /** As above, with the writer thread's writes passed through {@code faults}: for tests. */
    DirectFileWriter(Path path, int bufferBytes, boolean tryDirect, UnaryOperator<BlockSink> faults)
        throws IOException {
        if (bufferBytes <= 0) {
            throw new IllegalArgumentException("bufferBytes must be positive, was " + bufferBytes);
        }
        this.path = path;
        this.faults = faults;
        this.alignment = alignment(path);
        this.bufferBytes = (int) Math.min(Integer.MAX_VALUE - alignment,
            ((long) bufferBytes + alignment - 1) / alignment * alignment);
        this.plain = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        FileChannel opened = null;
        if (tryDirect) {
            try {
                opened = FileChannel.open(path, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
            } catch (AccessDeniedException | NoSuchFileException e) {
                plain.close();
                throw e;
            } catch (FileSystemException | UnsupportedOperationException refused) {
                // EINVAL: no O_DIRECT on this file system; the page cache it is.
                opened = null;
            }
        }
        this.direct = opened;
        this.writer = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "rondo-write-" + path.getFileName());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The block size writes are aligned to: 4096, or the file store's block size if larger. */
    private static int alignment(Path path) {
        try {
            long block = Files.getFileStore(path.toAbsolutePath().getParent()).getBlockSize();
            if (block > MIN_ALIGNMENT && block <= (1 << 20) && Long.bitCount(block) == 1) {
                return (int) block;
            }
        } catch (IOException | UnsupportedOperationException | NullPointerException e) {
            return MIN_ALIGNMENT;
        }
        return MIN_ALIGNMENT;
    }

    /** Whether the bytes go to the device past the page cache: false after a fallback. */
    public boolean isDirect() {
        return direct != null;
    }

    /** The bytes given so far: the file's length once closed. */
    public long size() {
        return handed + (buffers[filling] == null ? 0 : buffers[filling].position());
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        if (failure != null || pending != null && pending.isDone()) {
            await();
        }
        int n = src.remaining();
        while (src.hasRemaining()) {
            ByteBuffer buffer = buffer();
            int take = Math.min(src.remaining(), buffer.remaining());
            buffer.put(buffer.position(), src, src.position(), take);
            buffer.position(buffer.position() + take);
            src.position(src.position() + take);
            if (!buffer.hasRemaining()) {
                hand(buffer, buffer.position());
            }
        }
        return n;
    }

    private ByteBuffer buffer() {
        if (buffers[filling] == null) {
            buffers[filling] = ByteBuffer.allocateDirect(bufferBytes + alignment).alignedSlice(alignment)
                .limit(bufferBytes);
        }
        return buffers[filling];
    }

    /** Waits for the buffer being written, then has {@code full}'s first {@code length} bytes written. */
    private void hand(ByteBuffer full, int length) throws IOException {
        await();
        int padded = (length + alignment - 1) / alignment * alignment;
        ByteBuffer block = full.duplicate().position(0).limit(padded);
        long at = handed;
        handed += length;
        pending = writer.submit(() -> {
            writeBlock(block, at);
            return null;
        });
        full.clear().limit(bufferBytes);
        filling ^= 1;
    }

    /** On the writer thread: one block, O_DIRECT unless refused. */
    private void writeBlock(ByteBuffer block, long at) throws IOException {
        FileChannel target = direct;
        if (target != null) {
            try {
                faults.apply(writeFully(target)).write(block.duplicate(), at);
                return;
            } catch (IOException refused) {
                if (at != 0) {
                    throw refused;
                }
                // The first write: some file systems open O_DIRECT and refuse it here (EINVAL).
                // A real device error recurs through the page cache, or at force.
                direct = null;
                target.close();
            }
        }
        faults.apply(writeFully(plain)).write(block.duplicate(), at);
    }

    private static BlockSink writeFully(FileChannel channel) {
        return (block, position) -> {
            long at = position;
            while (block.hasRemaining()) {
                at += channel.write(block, at);
            }
        };
    }

    private void await() throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (pending == null) {
            return;
        }
        try {
            pending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new InterruptedIOException("interrupted while " + path + " was written");
            throw failure;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            failure = cause instanceof IOException io ? io : new IOException("writing " + path + " failed", cause);
            throw failure;
        } finally {
            pending = null;
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /**
     * Writes what is left, waits for it, cuts the file to the bytes given and forces it; rethrows a
     * write's failure. The file is closed either way.
     */
    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        try (FileChannel file = plain) {
            try {
                long size = size();
                ByteBuffer last = buffers[filling];
                if (last != null && last.position() > 0) {
                    hand(last, last.position());
                }
                await();
                file.truncate(size);
                file.force(true);
            } finally {
                writer.shutdownNow();
                FileChannel target = direct;
                if (target != null) {
                    target.close();
                }
            }
        }
    }
}

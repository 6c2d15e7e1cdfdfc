package io.rondo.scheduler.exec;

import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.device.WritableFile;

import java.nio.ByteBuffer;

/**
 * What one disk request reads or writes and whom to tell: attached to a {@code DiskRequest} by
 * whoever makes it, read by the executor when the scheduler issues it. A write ({@link #write})
 * is a recording's fragment for one round, scheduled like any read (papers/000 Section 2.1).
 *
 * @param file       the file to read or write (a {@link WritableFile} for a write), or null for an
 *                   IO that only takes time (an emulated disk with nothing behind it)
 * @param offset     the first byte, any alignment for a read, aligned for a write
 * @param length     how many bytes
 * @param streamId   the stream whose buffer reservation pays for a read, or {@link BufferPool#NO_STREAM}
 * @param completion told when the IO is done or failed, on the executor's thread
 * @param source     for a write, the bytes to write (their position to their limit); null for a read
 * @param force      for a write, whether it is made durable (fdatasync) before it completes
 */
public record IoTask(OpenFile file, long offset, int length, long streamId, IoCompletion completion,
                     ByteBuffer source, boolean force) {

    public IoTask {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("an IO needs offset >= 0 and length > 0, was " + offset + "+" + length);
        }
        if (completion == null) {
            throw new IllegalArgumentException("an IO needs someone to tell when it is done");
        }
        if (source != null && (offset % DiskIo.ALIGNMENT != 0 || length % DiskIo.ALIGNMENT != 0)) {
            throw new IllegalArgumentException("a write needs offset and length aligned to " + DiskIo.ALIGNMENT
                + " bytes (O_DIRECT), was " + offset + "+" + length);
        }
        if (source != null && source.remaining() != length) {
            throw new IllegalArgumentException("a write of " + length + " bytes from a buffer holding "
                + source.remaining());
        }
        if (source != null && file != null && !(file instanceof WritableFile)) {
            throw new IllegalArgumentException(file.path() + " is not open for writing");
        }
    }

    /** A read of {@code length} bytes at {@code offset} of {@code file}. */
    public IoTask(OpenFile file, long offset, int length, long streamId, IoCompletion completion) {
        this(file, offset, length, streamId, completion, null, false);
    }

    /**
     * A write of {@code data}'s remaining bytes at {@code offset} of {@code file}, which the
     * executor completes with no data and no buffer ({@code data} stays the caller's: it may
     * reuse it once told). {@code data} must be direct with an aligned address, {@code offset}
     * and the length multiples of {@link DiskIo#ALIGNMENT}.
     *
     * @param file  the file, or null for a write that only takes time (an emulated disk)
     * @param force whether the write is made durable (fdatasync) before it completes
     */
    public static IoTask write(WritableFile file, long offset, ByteBuffer data, boolean force,
                               IoCompletion completion) {
        if (data == null) {
            throw new IllegalArgumentException("a write needs the bytes to write");
        }
        return new IoTask(file, offset, data.remaining(), BufferPool.NO_STREAM, completion, data, force);
    }

    /** True for a write. */
    public boolean isWrite() {
        return source != null;
    }

    /** The file a write goes to, or null for one that only takes time. */
    public WritableFile target() {
        return (WritableFile) file;
    }
}

package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * What both readers share: the argument checks that O_DIRECT needs, done in Java before anything
 * reaches the kernel or native memory, the widening of an unaligned read to its aligned span,
 * refusing to work on a closed file or to write one opened for reading, and naming a full disk.
 */
abstract class AbstractOpenFile implements WritableFile {

    /** The FIEMAP flag on a file's last extent. */
    static final int EXTENT_LAST = 0x1;
    /** The FIEMAP flag on an extent whose physical location is not known yet. */
    static final int EXTENT_UNKNOWN = 0x2;

    private final Path path;
    private final boolean writable;
    private boolean closed;

    /** A file at {@code path}, opened for writing as well as reading if {@code writable}. */
    AbstractOpenFile(Path path, boolean writable) {
        this.path = path;
        this.writable = writable;
    }

    @Override
    public final Path path() {
        return path;
    }

    @Override
    public final int readAligned(long offset, ByteBuffer dst) throws IOException {
        checkAligned(offset, dst, "dst", false);
        ensureOpen("read");
        int position = dst.position();
        int length = dst.remaining();
        if (length == 0) {
            return 0;
        }
        int read = readAt(offset, dst, position, length);
        dst.position(position + read);
        return read;
    }

    @Override
    public final ByteBuffer read(long offset, int length, ByteBuffer scratch) throws IOException {
        if (offset < 0 || length < 0 || offset > Long.MAX_VALUE - length - DiskIo.ALIGNMENT) {
            throw new IllegalArgumentException("cannot read " + length + " bytes at offset " + offset + " of " + path);
        }
        long start = offset - Math.floorMod(offset, DiskIo.ALIGNMENT);
        long end = offset + length;
        long span = (end + DiskIo.ALIGNMENT - 1) / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT - start;
        checkBuffer(scratch, "scratch", false);
        if (scratch.remaining() < span) {
            throw new IllegalArgumentException("scratch buffer has " + scratch.remaining() + " bytes remaining, but "
                + length + " bytes at offset " + offset + " need an aligned span of " + span + " bytes");
        }
        int base = scratch.position();
        ByteBuffer window = scratch.duplicate();
        window.limit(base + (int) span);
        int read = readAligned(start, window);
        int head = (int) (offset - start);
        int count = Math.max(0, Math.min(length, read - head));
        return scratch.slice(base + head, count);
    }

    @Override
    public final void writeAligned(long offset, ByteBuffer src) throws IOException {
        checkAligned(offset, src, "src", true);
        ensureWritable("write");
        int position = src.position();
        int length = src.remaining();
        if (length == 0) {
            return;
        }
        try {
            writeAt(offset, src, position, length);
        } catch (IOException e) {
            throw DiskFullException.ifFull(e);
        }
        src.position(position + length);
    }

    @Override
    public final void force() throws IOException {
        ensureWritable("fdatasync");
        forceNow();
    }

    @Override
    public final boolean allocate(long offset, long length) throws IOException {
        if (offset < 0 || length <= 0 || offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("cannot reserve " + length + " bytes at offset " + offset + " of "
                + path);
        }
        ensureWritable("fallocate");
        try {
            return allocateNow(offset, length);
        } catch (IOException e) {
            throw DiskFullException.ifFull(e);
        }
    }

    @Override
    public final void truncate(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("cannot set the size of " + path + " to " + size + " bytes");
        }
        ensureWritable("ftruncate");
        truncateNow(size);
    }

    @Override
    public final void close() throws IOException {
        if (!closed) {
            closed = true;
            closeNow();
        }
    }

    /** Throws if the file was closed; {@code operation} names what was tried, for the message. */
    final void ensureOpen(String operation) throws IOException {
        if (closed) {
            throw new IOException(operation + " " + path + ": the file is closed");
        }
    }

    /** Whether the file was opened for writing. */
    final boolean writable() {
        return writable;
    }

    /**
     * Reads {@code length} bytes at {@code offset} into {@code dst} from index {@code position},
     * everything already checked and aligned, without moving {@code dst}'s position; returns how
     * many arrived, fewer only at the end of the file.
     */
    abstract int readAt(long offset, ByteBuffer dst, int position, int length) throws IOException;

    /**
     * Writes all {@code length} bytes of {@code src} from index {@code position} at {@code offset},
     * everything already checked and aligned, without moving {@code src}'s position.
     */
    abstract void writeAt(long offset, ByteBuffer src, int position, int length) throws IOException;

    /** fdatasync, the file open for writing. */
    abstract void forceNow() throws IOException;

    /** fallocate with FALLOC_FL_KEEP_SIZE, arguments checked; false where it cannot be done. */
    abstract boolean allocateNow(long offset, long length) throws IOException;

    /** ftruncate, arguments checked. */
    abstract void truncateNow(long size) throws IOException;

    /** Releases the file; called once. */
    abstract void closeNow() throws IOException;

    /** Throws if the file was closed or opened for reading only; {@code operation} names what was tried. */
    private void ensureWritable(String operation) throws IOException {
        ensureOpen(operation);
        if (!writable) {
            throw new IOException(operation + " " + path + ": the file is open for reading only");
        }
    }

    /** The message for an offset past the end, shared so both readers say the same. */
    final IOException pastTheEnd(long offset, long size) {
        return new IOException("physical position of offset " + offset + " in " + path
            + ": past the end of the file (" + size + " bytes)");
    }

    private void checkAligned(long offset, ByteBuffer dst, String name, boolean mayBeReadOnly) {
        checkBuffer(dst, name, mayBeReadOnly);
        if (offset < 0 || offset % DiskIo.ALIGNMENT != 0) {
            throw new IllegalArgumentException("offset " + offset + " in " + path
                + " is not a non-negative multiple of " + DiskIo.ALIGNMENT + " (O_DIRECT)");
        }
        if (dst.remaining() % DiskIo.ALIGNMENT != 0) {
            throw new IllegalArgumentException("length " + dst.remaining() + " is not a multiple of "
                + DiskIo.ALIGNMENT + " (O_DIRECT)");
        }
        if (dst.alignmentOffset(dst.position(), DiskIo.ALIGNMENT) != 0) {
            throw new IllegalArgumentException("buffer address at position " + dst.position()
                + " is not aligned to " + DiskIo.ALIGNMENT + " bytes (O_DIRECT); allocate with AlignedBuffers");
        }
    }

    private static void checkBuffer(ByteBuffer buffer, String name, boolean mayBeReadOnly) {
        if (buffer == null) {
            throw new IllegalArgumentException(name + " buffer is null");
        }
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException(name + " is a heap buffer; O_DIRECT needs a direct, aligned one"
                + " (allocate with AlignedBuffers)");
        }
        if (buffer.isReadOnly() && !mayBeReadOnly) {
            throw new IllegalArgumentException(name + " buffer is read-only");
        }
    }
}

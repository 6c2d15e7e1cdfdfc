package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * What both readers share: the argument checks that O_DIRECT needs, done in Java before anything
 * reaches the kernel or native memory, the widening of an unaligned read to its aligned span, and
 * refusing to work on a closed file.
 */
abstract class AbstractOpenFile implements OpenFile {

    /** The FIEMAP flag on a file's last extent. */
    static final int EXTENT_LAST = 0x1;
    /** The FIEMAP flag on an extent whose physical location is not known yet. */
    static final int EXTENT_UNKNOWN = 0x2;

    private final Path path;
    private boolean closed;

    AbstractOpenFile(Path path) {
        this.path = path;
    }

    @Override
    public final Path path() {
        return path;
    }

    @Override
    public final int readAligned(long offset, ByteBuffer dst) throws IOException {
        checkAligned(offset, dst);
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
        checkBuffer(scratch, "scratch");
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

    /**
     * Reads {@code length} bytes at {@code offset} into {@code dst} from index {@code position},
     * everything already checked and aligned, without moving {@code dst}'s position; returns how
     * many arrived, fewer only at the end of the file.
     */
    abstract int readAt(long offset, ByteBuffer dst, int position, int length) throws IOException;

    /** Releases the file; called once. */
    abstract void closeNow() throws IOException;

    /** The message for an offset past the end, shared so both readers say the same. */
    final IOException pastTheEnd(long offset, long size) {
        return new IOException("physical position of offset " + offset + " in " + path
            + ": past the end of the file (" + size + " bytes)");
    }

    private void checkAligned(long offset, ByteBuffer dst) {
        checkBuffer(dst, "dst");
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

    private static void checkBuffer(ByteBuffer buffer, String name) {
        if (buffer == null) {
            throw new IllegalArgumentException(name + " buffer is null");
        }
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException(name + " is a heap buffer; O_DIRECT reads need a direct, aligned one"
                + " (allocate with AlignedBuffers)");
        }
        if (buffer.isReadOnly()) {
            throw new IllegalArgumentException(name + " buffer is read-only");
        }
    }
}

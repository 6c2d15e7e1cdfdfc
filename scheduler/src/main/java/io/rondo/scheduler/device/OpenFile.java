package io.rondo.scheduler.device;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A file opened by a {@link DiskIo}. Reads go straight to the device (O_DIRECT): offsets, lengths
 * and buffer addresses must be multiples of {@link DiskIo#ALIGNMENT}; {@link #read(long, int,
 * ByteBuffer)} widens an unaligned request to the aligned range around it and hands back just the
 * bytes asked for. Not thread-safe: one disk executor thread uses it.
 */
public interface OpenFile extends Closeable {

    Path path();

    /** The file's current size in bytes. */
    long size() throws IOException;

    /**
     * Reads {@code dst.remaining()} bytes at {@code offset} into {@code dst}, which must be a
     * direct buffer whose position address is aligned, as must {@code offset} and the length.
     * Returns the bytes read, fewer only at the end of the file, and advances {@code dst}'s
     * position by that much.
     *
     * @throws IllegalArgumentException if the buffer is not direct or anything is unaligned
     * @throws IOException              with the system's error text if the read fails
     */
    int readAligned(long offset, ByteBuffer dst) throws IOException;

    /**
     * Reads {@code length} bytes at any {@code offset}: the aligned range around them is read
     * into {@code scratch} (direct, aligned, large enough: see {@link #alignedSpan}), and the
     * returned buffer is a view of {@code scratch} holding exactly the bytes asked for, fewer at
     * the end of the file.
     */
    ByteBuffer read(long offset, int length, ByteBuffer scratch) throws IOException;

    /** The physical byte address on the device of the byte at {@code offset}, for SCAN. */
    long physicalPosition(long offset) throws IOException;

    /** The file's extents in logical order; one extent covering the file in the Java reader. */
    List<Extent> extents() throws IOException;

    /** posix_fadvise; a no-op in the Java reader. */
    void advise(long offset, long length, Advice advice) throws IOException;

    /** The length of the aligned range that holds {@code [offset, offset + length)}. */
    static int alignedSpan(long offset, int length) {
        long start = offset - Math.floorMod(offset, DiskIo.ALIGNMENT);
        long end = offset + length;
        long alignedEnd = (end + DiskIo.ALIGNMENT - 1) / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT;
        return Math.toIntExact(alignedEnd - start);
    }

    /** posix_fadvise advice. */
    enum Advice {
        NORMAL, SEQUENTIAL, RANDOM, WILLNEED, DONTNEED, NOREUSE
    }

    /** One extent: {@code length} bytes at logical {@code logical} live at physical {@code physical}. */
    record Extent(long logical, long physical, long length, int flags) {
    }
}

package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file opened for writing by {@link DiskIo#openForWriting}: a recording's file, written one
 * fragment per round as a C-request of its disk (papers/000 Section 2.1: one IO per stream per
 * round, for write streams as for read streams). Writes go straight to the device (O_DIRECT where
 * the file system takes it), so a round's writes cost the disk what the scheduler charged for them
 * and not later, at the kernel's writeback. Space is reserved ahead with {@link #allocate}, so that
 * no round pays for finding free blocks (papers/002 Section 4: allocation is the enemy of write
 * latency). One thread at a time writes, forces, reserves and truncates (the disk's thread, or
 * before the file is handed to it); {@link #physicalPosition} may be asked on another meanwhile,
 * to place the next round's write in the scan.
 *
 * <p>On a file opened for writing, {@link #physicalPosition} also maps offsets past the end that
 * {@link #allocate} reserved (the native reader), or any offset (the Java reader, whose positions
 * are offsets), so a write's C-request has a position to be scanned by.
 */
public interface WritableFile extends OpenFile {

    /**
     * Writes all of {@code src}'s remaining bytes at {@code offset} and advances its position past
     * them. {@code src} must be direct with an aligned position address (it may be read-only);
     * {@code offset} and the length must be multiples of {@link DiskIo#ALIGNMENT}.
     *
     * @throws IllegalArgumentException if the buffer is not direct or anything is unaligned
     * @throws DiskFullException        if the disk has no space left (ENOSPC, or the quota: EDQUOT)
     * @throws IOException              with the system's error text if the write fails otherwise
     */
    void writeAligned(long offset, ByteBuffer src) throws IOException;

    /** Makes every write so far durable (fdatasync): a crash after it returns loses none of them. */
    void force() throws IOException;

    /**
     * Reserves the blocks of {@code [offset, offset + length)} without changing the file's size
     * (fallocate with FALLOC_FL_KEEP_SIZE), so later writes there allocate nothing. Returns false
     * where that cannot be done: the Java reader, or a file system without fallocate (EOPNOTSUPP);
     * the writes then allocate as they go.
     *
     * @throws DiskFullException if the disk has not that much space left
     */
    boolean allocate(long offset, long length) throws IOException;

    /**
     * Sets the file's size to {@code size} (ftruncate): cuts what lies past it, blocks reserved
     * by {@link #allocate} included, or extends the file with zeros.
     */
    void truncate(long size) throws IOException;
}

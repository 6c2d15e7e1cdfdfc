package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A file opened by {@link NativeDiskIo}: a file descriptor with O_DIRECT. Its FIEMAP extents are
 * fetched once and kept until the file's size or mtime changes or this file writes, reserves or
 * truncates, so {@link #physicalPosition} costs one fstat and a binary search, not an ioctl that
 * syncs the file. The extents are kept as one immutable map, dropped whole, so that a recording's
 * next positions may be asked for on one thread while the disk's thread writes the file.
 */
final class NativeOpenFile extends AbstractOpenFile {

    private final int fd;
    private final String name;

    private volatile ExtentMap map;

    /** The extents FIEMAP gave while the file had this size and mtime. */
    private record ExtentMap(List<Extent> extents, long size, long mtimeNs) {
    }

    NativeOpenFile(Path path, int fd, boolean writable) {
        super(path, writable);
        this.fd = fd;
        this.name = path.toString();
    }

    @Override
    public long size() throws IOException {
        ensureOpen("fstat");
        return NativeDiskIo.fstat0(fd, name)[0];
    }

    @Override
    int readAt(long offset, ByteBuffer dst, int position, int length) throws IOException {
        return NativeDiskIo.pread0(fd, dst, position, length, offset, name);
    }

    @Override
    void writeAt(long offset, ByteBuffer src, int position, int length) throws IOException {
        map = null;
        NativeDiskIo.pwrite0(fd, src, position, length, offset, name);
    }

    @Override
    void forceNow() throws IOException {
        NativeDiskIo.fdatasync0(fd, name);
    }

    @Override
    boolean allocateNow(long offset, long length) throws IOException {
        map = null;
        return NativeDiskIo.fallocate0(fd, offset, length, name);
    }

    @Override
    void truncateNow(long size) throws IOException {
        map = null;
        NativeDiskIo.ftruncate0(fd, size, name);
    }

    /** Past the end, a file open for writing maps the offsets {@link #allocate} reserved. */
    @Override
    public long physicalPosition(long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " in " + name);
        }
        ExtentMap current = extentMap();
        List<Extent> list = current.extents();
        if (offset >= current.size() && !(writable() && mapped(list, offset))) {
            throw pastTheEnd(offset, current.size());
        }
        int low = 0;
        int high = list.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            Extent extent = list.get(middle);
            if (offset < extent.logical()) {
                high = middle - 1;
            } else if (offset >= extent.logical() + extent.length()) {
                low = middle + 1;
            } else {
                if ((extent.flags() & EXTENT_UNKNOWN) != 0) {
                    throw new IOException("physical position of offset " + offset + " in " + name
                        + ": the file system does not know the extent's location yet (FIEMAP_EXTENT_UNKNOWN)");
                }
                return extent.physical() + (offset - extent.logical());
            }
        }
        throw new IOException("physical position of offset " + offset + " in " + name
            + ": the offset is in a hole (no extent maps it)");
    }

    private static boolean mapped(List<Extent> list, long offset) {
        if (list.isEmpty()) {
            return false;
        }
        Extent last = list.get(list.size() - 1);
        return offset < last.logical() + last.length();
    }

    @Override
    public List<Extent> extents() throws IOException {
        return extentMap().extents();
    }

    private ExtentMap extentMap() throws IOException {
        ensureOpen("FIEMAP");
        long[] stat = NativeDiskIo.fstat0(fd, name);
        ExtentMap current = map;
        if (current == null || stat[0] != current.size() || stat[1] != current.mtimeNs()) {
            long[] flat = NativeDiskIo.fiemap0(fd, name);
            List<Extent> list = new ArrayList<>(flat.length / 4);
            for (int i = 0; i < flat.length; i += 4) {
                list.add(new Extent(flat[i], flat[i + 1], flat[i + 2], (int) flat[i + 3]));
            }
            current = new ExtentMap(Collections.unmodifiableList(list), stat[0], stat[1]);
            map = current;
        }
        return current;
    }

    @Override
    public void advise(long offset, long length, Advice advice) throws IOException {
        if (offset < 0 || length < 0 || advice == null) {
            throw new IllegalArgumentException("cannot advise " + advice + " for " + length + " bytes at offset "
                + offset + " of " + name);
        }
        ensureOpen("posix_fadvise");
        NativeDiskIo.fadvise0(fd, offset, length, NativeDiskIo.adviceCode(advice), name);
    }

    @Override
    void closeNow() throws IOException {
        NativeDiskIo.close0(fd, name);
    }
}

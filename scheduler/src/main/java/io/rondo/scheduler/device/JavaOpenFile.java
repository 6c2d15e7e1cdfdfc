package io.rondo.scheduler.device;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * A file opened by {@link JavaDiskIo}: a FileChannel, with O_DIRECT where the file system took it.
 * Java knows nothing of where the bytes lie, so the file is one extent and a byte's position is its
 * offset; nor can it reserve blocks ahead, so {@link #allocate} says false.
 */
final class JavaOpenFile extends AbstractOpenFile {

    private final FileChannel channel;
    private final boolean direct;

    JavaOpenFile(Path path, FileChannel channel, boolean direct, boolean writable) {
        super(path, writable);
        this.channel = channel;
        this.direct = direct;
    }

    /** Whether the file system took O_DIRECT for this file. */
    boolean direct() {
        return direct;
    }

    @Override
    public long size() throws IOException {
        ensureOpen("size of");
        return channel.size();
    }

    @Override
    int readAt(long offset, ByteBuffer dst, int position, int length) throws IOException {
        ByteBuffer window = dst.duplicate();
        window.limit(position + length).position(position);
        int done = 0;
        try {
            while (done < length) {
                int read = channel.read(window, offset + done);
                if (read <= 0) {
                    break;
                }
                done += read;
                if (direct && done % DiskIo.ALIGNMENT != 0) {
                    break; // O_DIRECT stops mid-block only at the end of the file
                }
            }
        } catch (IOException e) {
            throw new IOException("pread " + path() + " at offset " + (offset + done) + ", " + (length - done)
                + " bytes: " + e.getMessage(), e);
        }
        return done;
    }

    @Override
    void writeAt(long offset, ByteBuffer src, int position, int length) throws IOException {
        ByteBuffer window = src.duplicate();
        window.limit(position + length).position(position);
        int done = 0;
        try {
            while (done < length) {
                done += channel.write(window, offset + done);
            }
        } catch (IOException e) {
            throw new IOException("pwrite " + path() + " at offset " + (offset + done) + ", " + (length - done)
                + " bytes: " + e.getMessage(), e);
        }
    }

    @Override
    void forceNow() throws IOException {
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new IOException("fdatasync " + path() + ": " + e.getMessage(), e);
        }
    }

    /** False: Java has no fallocate. */
    @Override
    boolean allocateNow(long offset, long length) throws IOException {
        return false;
    }

    /** FileChannel only cuts, so a longer size is set through a second descriptor, as ftruncate would. */
    @Override
    void truncateNow(long size) throws IOException {
        try {
            if (size <= channel.size()) {
                channel.truncate(size);
            } else {
                try (RandomAccessFile file = new RandomAccessFile(path().toFile(), "rw")) {
                    file.setLength(size);
                }
            }
        } catch (IOException e) {
            throw new IOException("ftruncate " + path() + " to " + size + " bytes: " + e.getMessage(), e);
        }
    }

    /** The offset itself; a file open for writing maps offsets past its end too, where its writes will go. */
    @Override
    public long physicalPosition(long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " in " + path());
        }
        long size = size();
        if (offset >= size && !writable()) {
            throw pastTheEnd(offset, size);
        }
        return offset;
    }

    @Override
    public List<Extent> extents() throws IOException {
        long size = size();
        return size == 0 ? List.of() : List.of(new Extent(0, 0, size, EXTENT_LAST));
    }

    @Override
    public void advise(long offset, long length, Advice advice) throws IOException {
        if (offset < 0 || length < 0 || advice == null) {
            throw new IllegalArgumentException("cannot advise " + advice + " for " + length + " bytes at offset "
                + offset + " of " + path());
        }
        ensureOpen("posix_fadvise");
    }

    @Override
    void closeNow() throws IOException {
        channel.close();
    }
}

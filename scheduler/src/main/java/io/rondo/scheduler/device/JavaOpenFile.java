package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * A file opened by {@link JavaDiskIo}: a FileChannel, with O_DIRECT where the file system took it.
 * Java knows nothing of where the bytes lie, so the file is one extent and a byte's position is its
 * offset.
 */
final class JavaOpenFile extends AbstractOpenFile {

    private final FileChannel channel;
    private final boolean direct;

    JavaOpenFile(Path path, FileChannel channel, boolean direct) {
        super(path);
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
    public long physicalPosition(long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " in " + path());
        }
        long size = size();
        if (offset >= size) {
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

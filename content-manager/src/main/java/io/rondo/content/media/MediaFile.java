package io.rondo.content.media;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A media file read by position: element and box headers through a small window, bodies the indexer
 * wants whole (Tracks, moov, moof) in one read. Payloads are never read; the window is small so that
 * skipping a cluster or an mdat costs one positioned read of its header, however large it is.
 */
public final class MediaFile implements Closeable {

    /** Bytes read at once for headers: a cluster's header and timecode, a box's size and type. */
    public static final int WINDOW_BYTES = 512;

    /** The most an indexer reads whole into memory (one Tracks, moov or moof). */
    public static final int MAX_BODY_BYTES = 16 << 20;

    private final FileChannel channel;
    private final long size;
    private final ByteBuffer window = ByteBuffer.allocate(WINDOW_BYTES);
    private long windowStart;
    private long bytesRead;

    private MediaFile(FileChannel channel) throws IOException {
        this.channel = channel;
        this.size = channel.size();
        window.limit(0);
    }

    /** Opens {@code file} for reading. */
    public static MediaFile open(Path file) throws IOException {
        return new MediaFile(FileChannel.open(file, StandardOpenOption.READ));
    }

    /** The file's size when it was opened. */
    public long size() {
        return size;
    }

    /** Bytes read from the file so far: what the performance test holds against the file's size. */
    public long bytesRead() {
        return bytesRead;
    }

    /**
     * Up to {@code n} (at most {@link #WINDOW_BYTES}) bytes at {@code pos}, fewer only where the file
     * ends. The buffer is a view of the window: valid until the next call.
     */
    public ByteBuffer peek(long pos, int n) throws IOException {
        int want = (int) Math.max(0, Math.min(Math.min(n, WINDOW_BYTES), size - pos));
        if (pos < windowStart || pos + want > windowStart + window.limit()) {
            fill(pos);
            want = Math.min(want, window.limit());
        }
        return window.slice((int) (pos - windowStart), want);
    }

    /** Exactly {@code n} bytes at {@code pos}, which the caller has checked lie within the file. */
    public ByteBuffer read(long pos, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(n);
        while (buf.hasRemaining()) {
            int r = channel.read(buf, pos + buf.position());
            if (r < 0) {
                throw new EOFException("the file ended at byte " + (pos + buf.position())
                    + " while it was being indexed: did it change meanwhile?");
            }
            bytesRead += r;
        }
        return buf.flip();
    }

    /**
     * Fills {@code dst} from its position to its limit with the bytes at {@code pos}: how a remuxer
     * reads a fragment's worth of payload at once into a buffer it reuses.
     */
    public void readFully(long pos, ByteBuffer dst) throws IOException {
        long at = pos;
        while (dst.hasRemaining()) {
            int r = channel.read(dst, at);
            if (r < 0) {
                throw new EOFException("the file ended at byte " + at + " while it was being read: did it change"
                    + " since it was indexed?");
            }
            at += r;
            bytesRead += r;
        }
    }

    private void fill(long pos) throws IOException {
        window.clear();
        window.limit((int) Math.max(0, Math.min(WINDOW_BYTES, size - pos)));
        while (window.hasRemaining()) {
            int r = channel.read(window, pos + window.position());
            if (r < 0) {
                break;
            }
            bytesRead += r;
        }
        window.flip();
        windowStart = pos;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

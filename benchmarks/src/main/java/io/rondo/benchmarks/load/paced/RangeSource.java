package io.rondo.benchmarks.load.paced;

import io.rondo.benchmarks.load.http.HttpConnection;
import java.io.IOException;

/**
 * A best-effort stream: the media file read from an HTTP server by Range requests, one block at a
 * time, at the media's mean byte rate, as a player with no server-side guarantee reads it (rwrt's
 * reader over plain Linux I/O, papers/002 Section 5). At the end of the file it starts again from
 * the beginning, so a run may be longer than the clip.
 */
public final class RangeSource implements PacedReader.BlockSource {

    private final HttpConnection connection;
    private final String path;
    private final long fileBytes;
    private final int blockBytes;
    private final double bytesPerSecond;
    private long offset;

    /**
     * @param connection the server, one connection a reader
     * @param path the media file's URL path
     * @param fileBytes its size
     * @param blockBytes how much one read asks for
     * @param bytesPerSecond the media's mean rate, which sets the reads' pace
     * @param startOffset where the first read starts (readers spread over the file read different blocks)
     */
    public RangeSource(HttpConnection connection, String path, long fileBytes, int blockBytes, double bytesPerSecond,
                long startOffset) {
        if (fileBytes < 1 || blockBytes < 1 || bytesPerSecond <= 0) {
            throw new IllegalArgumentException("a paced range read needs a file, a block and a rate above 0");
        }
        this.connection = connection;
        this.path = path;
        this.fileBytes = fileBytes;
        this.blockBytes = blockBytes;
        this.bytesPerSecond = bytesPerSecond;
        this.offset = Math.floorMod(startOffset, fileBytes);
    }

    @Override
    public long readNext() throws IOException {
        long length = Math.min(blockBytes, fileBytes - offset);
        long got = connection.get(path, offset, length);
        if (got != length) {
            throw new IOException("asked " + path + " for " + length + " bytes at " + offset + ", got " + got);
        }
        offset = offset + length == fileBytes ? 0 : offset + length;
        return mediaNs(length, bytesPerSecond);
    }

    /** How long {@code bytes} of media play at {@code bytesPerSecond}. */
    static long mediaNs(long bytes, double bytesPerSecond) {
        return Math.round(bytes * 1e9 / bytesPerSecond);
    }
}

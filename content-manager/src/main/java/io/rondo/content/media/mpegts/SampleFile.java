package io.rondo.content.media.mpegts;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file of rewritten samples: created in a scratch folder and unlinked as it is opened
 * ({@link StandardOpenOption#DELETE_ON_CLOSE}), written through one buffer, read by the writer.
 */
final class SampleFile {

    private static final int SCRATCH_BUFFER_BYTES = 1 << 20;
    final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(SCRATCH_BUFFER_BYTES);
    private long size;

    private SampleFile(FileChannel channel) {
        this.channel = channel;
    }

    static SampleFile open(Path folder) throws IOException {
        Path file = Files.createTempFile(folder, "rondo-remux-", ".samples");
        try {
            return new SampleFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Appends {@code length} bytes of {@code bytes}; returns where they start. */
    long append(byte[] bytes, int length) throws IOException {
        long at = size;
        int done = 0;
        while (done < length) {
            if (!buffer.hasRemaining()) {
                flush();
            }
            int n = Math.min(buffer.remaining(), length - done);
            buffer.put(bytes, done, n);
            done += n;
        }
        size += length;
        return at;
    }

    void flush() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    void close() throws IOException {
        channel.close();
    }
}

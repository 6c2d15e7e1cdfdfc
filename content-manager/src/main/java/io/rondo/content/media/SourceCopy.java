package io.rondo.content.media;

import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Stored media that is the source's own bytes, cut where an index says: media Rondo cannot parse,
 * streamed at a declared constant bit rate. Each range is copied through one reused buffer.
 */
final class SourceCopy implements StoredMedia {

    private static final int BUFFER_BYTES = 1 << 20;

    private final FileChannel in;
    private final MediaIndex index;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);

    SourceCopy(Path source, MediaIndex index) throws IOException {
        this.index = index;
        this.in = FileChannel.open(source, StandardOpenOption.READ);
    }

    @Override
    public MediaIndex index() {
        return index;
    }

    @Override
    public void writeInit(WritableByteChannel out) throws IOException {
        copy(index.init(), out);
    }

    @Override
    public void writeFragment(int i, WritableByteChannel out) throws IOException {
        Fragment fragment = index.fragments().get(i);
        copy(fragment.range(), out);
    }

    private void copy(ByteRange range, WritableByteChannel out) throws IOException {
        long done = 0;
        while (done < range.length()) {
            buffer.clear();
            buffer.limit((int) Math.min(buffer.capacity(), range.length() - done));
            int read = in.read(buffer, range.offset() + done);
            if (read < 0) {
                throw new EOFException("the file ended at byte " + (range.offset() + done) + " while its index expects "
                    + range.end() + ": did it change while it was ingested?");
            }
            buffer.flip();
            StoredMedia.writeFully(out, buffer);
            done += read;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}

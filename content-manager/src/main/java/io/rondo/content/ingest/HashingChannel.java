package io.rondo.content.ingest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * One write into a stripe file, hashed and counted: what goes through is fed to the object's
 * digest, and the count tells whether the remux wrote what its index planned.
 */
final class HashingChannel implements WritableByteChannel {

    private final WritableByteChannel out;
    private final BackgroundDigest digest;
    private long count;

    HashingChannel(WritableByteChannel out, BackgroundDigest digest) {
        this.out = out;
        this.digest = digest;
    }

    /** The bytes written through this channel. */
    long count() {
        return count;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        digest.update(src);
        int n = 0;
        while (src.hasRemaining()) {
            n += out.write(src);
        }
        count += n;
        return n;
    }

    @Override
    public boolean isOpen() {
        return out.isOpen();
    }

    @Override
    public void close() {
        // The stripe file outlives one fragment's write; the copy closes it.
    }
}

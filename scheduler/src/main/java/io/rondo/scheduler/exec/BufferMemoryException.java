package io.rondo.scheduler.exec;

import java.io.IOException;

/**
 * A read found no buffer memory left under the pool's ceiling, so it was not issued. Not a
 * disk's failure but a server at its memory's limit: the caller may try again once buffers come
 * back (the HTTP port answers 503 with a Retry-After).
 */
public final class BufferMemoryException extends IOException {

    private static final long serialVersionUID = 1L;

    /** A read of {@code spanBytes} that a pool of {@code ceilingBytes} could not hold. */
    public BufferMemoryException(long ceilingBytes, int spanBytes) {
        super("no buffer memory left under the " + ceilingBytes + "-byte ceiling for a read of " + spanBytes
            + " bytes");
    }
}

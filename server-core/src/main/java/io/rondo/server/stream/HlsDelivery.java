package io.rondo.server.stream;

import io.netty.buffer.ByteBuf;

/**
 * What a GET of part of the stored copy an {@link HlsSession} takes is answered with: called on the
 * session's event loop, in order.
 */
public interface HlsDelivery {

    /**
     * The answer starts: bytes {@code [offset, offset + length)} of the stored copy, of
     * {@code total} in all (-1 while a recording grows).
     */
    void begin(long offset, long length, long total);

    /** The next bytes of the body; {@code written} must be called once they are written or dropped. */
    void piece(ByteBuf data, Runnable written);

    /** Every byte is given. */
    void end();

    /** The bytes cannot be given (the session ended, a read failed): nothing more comes. */
    void failed(String why);
}

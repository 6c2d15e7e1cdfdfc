package io.rondo.server.runtime;

import java.io.IOException;

/**
 * A read refused because the queue it would wait in is full: a disk's D-request queue
 * ({@code scheduler.queue}) or the generator's ({@code scheduler.generatorQueue}). The server is
 * busy, not broken: the same read a moment later may well go through, so an HTTP answer says 503
 * with a Retry-After rather than failing the request.
 */
public final class QueueFullException extends IOException {

    private static final long serialVersionUID = 1L;

    public QueueFullException(String message) {
        super(message);
    }
}

package io.rondo.server.http;

/**
 * An answer still on its way after the router returns: a body read from the disks
 * ({@link BodyPump}), or one an HLS session gives from its reads or a blocking playlist reload waits
 * for. The connection answers nothing else until it calls the {@code done} it was given.
 */
interface Pending {

    /** Goes on: called to start, and again once the channel is writable. */
    void pump();

    /** The connection closed: stop, and give back what the answer holds. */
    void abandon();
}

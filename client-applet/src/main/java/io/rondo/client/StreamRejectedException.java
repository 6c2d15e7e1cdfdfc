package io.rondo.client;

import io.rondo.client.protocol.Reject;

/**
 * The server answered OPEN or PUBLISH with REJECT. Checked and apart from IOException because nothing failed:
 * the server is short of a resource, and the caller decides whether to retry after
 * {@link Reject#retryAfterSeconds()}. The connection stays usable for another OPEN or PUBLISH.
 */
public final class StreamRejectedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Reject reject;

    /**
     * @param objectName the object the OPEN (or PUBLISH) named
     * @param reject the server's answer
     */
    public StreamRejectedException(String objectName, Reject reject) {
        super("stream of " + objectName + " rejected: " + reject.reason()
                + (reject.retryAfterSeconds() > 0 ? ", retry after " + reject.retryAfterSeconds() + " s" : "")
                + (reject.message().isEmpty() ? "" : " (" + reject.message() + ")"));
        this.reject = reject;
    }

    /** The server's REJECT frame: reason, retry-after and message. */
    public Reject reject() {
        return reject;
    }
}

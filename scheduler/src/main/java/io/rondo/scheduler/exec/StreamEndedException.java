package io.rondo.scheduler.exec;

/**
 * A stream's read found the stream ended: its buffer reservation is gone, so the read is not
 * issued. Not a disk's failure: a client that closes its stream while a read of it waits cancels
 * that read, and no one waits for its bytes.
 */
public final class StreamEndedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The read of {@code streamId}, whose reservation is gone. */
    public StreamEndedException(long streamId) {
        super("stream " + streamId + " has no buffer reservation: it ended");
    }
}

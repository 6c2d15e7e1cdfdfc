package io.rondo.client.protocol;

/**
 * REJECT: the server did not admit the stream. The connection stays open and the client may send
 * another OPEN, e.g. after {@code retryAfterSeconds}.
 *
 * @param reason which resource was short, or why the object cannot stream
 * @param retryAfterSeconds when an OPEN may succeed, in seconds; 0 means retrying will not help
 * @param message details for a person; may be empty
 */
public record Reject(RejectReason reason, int retryAfterSeconds, String message) implements Frame {
    /** Checks the fields. */
    public Reject {
        if (reason == null) {
            throw new IllegalArgumentException("reason is null");
        }
        Wire.nonNegative(retryAfterSeconds, "retryAfterSeconds");
        Wire.utf8(message, "message");
    }

    @Override
    public FrameType type() {
        return FrameType.REJECT;
    }
}

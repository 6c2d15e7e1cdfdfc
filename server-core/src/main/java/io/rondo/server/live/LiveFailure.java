package io.rondo.server.live;

/**
 * Why a recording ended before its publisher finished it.
 *
 * @param diskFull whether its disk filled up (else a write failed otherwise)
 * @param message  what happened, for the publisher and the operator
 */
public record LiveFailure(boolean diskFull, String message) {

    /** The failure an IO error means: a full disk says so, anything else is a failed write. */
    static LiveFailure of(Throwable error) {
        String message = String.valueOf(error.getMessage());
        boolean full = message.contains("No space left") || message.contains("disk is full")
            || message.contains("ENOSPC");
        return new LiveFailure(full, full ? "the disk is full: " + message : "a write failed: " + message);
    }
}

package io.rondo.server.live;

import io.rondo.scheduler.device.DiskFullException;

/**
 * Why a recording ended before its publisher finished it.
 *
 * @param diskFull whether its disk filled up (else a write failed otherwise)
 * @param message  what happened, for the publisher and the operator
 */
public record LiveFailure(boolean diskFull, String message) {

    /** The failure an IO error means: a full disk says so, anything else is a failed write. */
    public static LiveFailure of(Throwable error) {
        String message = String.valueOf(error.getMessage());
        boolean full = error instanceof DiskFullException || message.contains("No space left")
            || message.contains("disk is full");
        return new LiveFailure(full, full ? "the disk is full: " + message : "a write failed: " + message);
    }
}

package io.rondo.scheduler.device;

import java.io.IOException;

/**
 * A write or a reservation found no space left on the disk (ENOSPC, or the user's quota: EDQUOT).
 * Its own type because a recording meets it in the normal course of things, and ends cleanly with
 * that reason, where any other write error is a failing disk.
 */
public final class DiskFullException extends IOException {

    private static final long serialVersionUID = 1L;

    /** What the system says when the disk is full, in glibc's untranslated words. */
    private static final String[] FULL = {"No space left on device", "Disk quota exceeded"};

    DiskFullException(String message, IOException cause) {
        super(message, cause);
    }

    /**
     * {@code failure} as a {@link DiskFullException} whose message says the disk is full, if the
     * system's text in it says so; else {@code failure} itself.
     */
    static IOException ifFull(IOException failure) {
        String message = failure.getMessage();
        if (failure instanceof DiskFullException || message == null) {
            return failure;
        }
        for (String full : FULL) {
            if (message.contains(full)) {
                return new DiskFullException(message + " (the disk is full)", failure);
            }
        }
        return failure;
    }
}

package io.rondo.content.media;

import java.io.IOException;

/**
 * Media that is truncated, corrupt or of a kind Rondo cannot index. The message names what is wrong
 * and where, so that the person who uploaded the file can tell which file to fix and how, e.g.
 * {@code truncated: the Cluster at byte 81234 claims 50000 bytes but the file ends at 90000}.
 */
public final class MediaFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    /** A message that starts with {@code truncated:}, {@code corrupt:} or {@code unsupported:}. */
    public MediaFormatException(String message) {
        super(message);
    }

    /** That the {@code what} at {@code offset} claims more bytes than the file holds. */
    public static MediaFormatException truncated(String what, long offset, long claimed, long fileEnd) {
        return new MediaFormatException("truncated: the " + what + " at byte " + offset + " claims " + claimed
            + " bytes but the file ends at " + fileEnd);
    }

    /** That the file ends before what {@code detail} says. */
    public static MediaFormatException truncated(String detail) {
        return new MediaFormatException("truncated: " + detail);
    }

    /** That the file holds what no muxer writes, as {@code detail} says. */
    public static MediaFormatException corrupt(String detail) {
        return new MediaFormatException("corrupt: " + detail);
    }

    /** That the file is well formed but holds what Rondo does not store, as {@code detail} says. */
    public static MediaFormatException unsupported(String detail) {
        return new MediaFormatException("unsupported: " + detail);
    }
}

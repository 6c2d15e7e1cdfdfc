package io.rondo.server.cli.play;

/**
 * Writing the media failed: the file could not be written, or the reader of standard output left.
 * The two end the stream differently (exit 1 and a deleted FILE.part, or exit 0 with a summary),
 * so the exception says which.
 */
final class OutputException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean readerLeft;

    OutputException(String message, boolean readerLeft) {
        super(message);
        this.readerLeft = readerLeft;
    }

    /** Whether the reader of standard output left (a decoder that quit, {@code | head -c 100}). */
    boolean readerLeft() {
        return readerLeft;
    }
}

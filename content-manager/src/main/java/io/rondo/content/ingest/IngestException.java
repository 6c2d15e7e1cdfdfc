package io.rondo.content.ingest;

/** An ingest refused: the message says what is wrong with the input and what to do. */
public final class IngestException extends Exception {

    private static final long serialVersionUID = 1L;

    public IngestException(String message) {
        super(message);
    }

    public IngestException(String message, Throwable cause) {
        super(message, cause);
    }
}

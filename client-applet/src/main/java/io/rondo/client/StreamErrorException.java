package io.rondo.client;

import io.rondo.client.protocol.ErrorFrame;
import java.io.IOException;

/**
 * The server sent ERROR: the stream is over and the server closes the connection. An IOException
 * because, to the reader of a stream, it is one more way the stream broke.
 */
public final class StreamErrorException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient ErrorFrame error;

    /** @param error the server's ERROR frame */
    public StreamErrorException(ErrorFrame error) {
        super(String.format("server error 0x%04x%s: %s", error.code(),
                error.errorCode() == null ? "" : " " + error.errorCode(), error.message()));
        this.error = error;
    }

    /** The server's ERROR frame: code and message. */
    public ErrorFrame error() {
        return error;
    }
}

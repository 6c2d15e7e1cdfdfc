package io.rondo.client.protocol;

import java.io.IOException;

/**
 * Bytes from a peer that are not a valid frame, or a frame not legal where it came. Checked, and an
 * {@link IOException}, because it is the peer's fault, not the program's: the receiver answers it
 * (a server sends ERROR with {@link #code()}) and closes the connection, whose framing is lost.
 */
public final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    /**
     * @param code what kind of fault, as an ERROR frame would name it
     * @param message what was wrong, for a person reading a log
     */
    public ProtocolException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    /** What kind of fault, as an ERROR frame would name it. */
    public ErrorCode code() {
        return code;
    }

    /** The ERROR frame a receiver sends its peer about this fault. */
    public ErrorFrame toErrorFrame() {
        return new ErrorFrame(code.code(), ErrorFrame.truncateMessage(getMessage()));
    }
}

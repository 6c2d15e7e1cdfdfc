package io.rondo.client.protocol;

/**
 * The error codes of an ERROR frame and of a {@link ProtocolException}. One table for both, so a
 * decoder's complaint can be sent to the peer as it stands. Codes below 0x0100 are protocol
 * faults; codes from 0x0100 are the server's own failures.
 */
public enum ErrorCode {
    /** A frame's bytes do not follow the layout: bad magic, bad flags, bad field, trailing bytes. */
    MALFORMED_FRAME(0x0001),
    /** The frame's version byte is one the receiver does not speak. */
    UNSUPPORTED_VERSION(0x0002),
    /** The frame's type byte names no frame of its version. */
    UNKNOWN_FRAME_TYPE(0x0003),
    /** The header declares a payload longer than the maximum. */
    FRAME_TOO_LARGE(0x0004),
    /** A well-formed frame that is not legal in the connection's state. */
    UNEXPECTED_FRAME(0x0005),
    /**
     * A frame ended early: sent by a server whose WebSocket binding got a message that ends inside
     * its frame; over TCP, the connection ending inside a frame, reported locally only.
     */
    TRUNCATED_FRAME(0x0006),
    /** The server failed in a way it did not foresee. */
    INTERNAL_ERROR(0x0100),
    /** A disk read of the stream's object failed; the stream cannot go on. */
    READ_FAILED(0x0101),
    /** The client sent nothing (not even REPORT) for too long. */
    CLIENT_TIMEOUT(0x0102),
    /** The server is shutting down. */
    SHUTTING_DOWN(0x0103),
    /** An operator ended the stream (the admin API), or removed its object. */
    ENDED_BY_OPERATOR(0x0104),
    /** The server holds its most connections, or its most from the client's address: try again later. */
    TOO_MANY_CONNECTIONS(0x0105),
    /** The publisher's bytes are not the container it declared, or cannot be cut into fragments. */
    BAD_MEDIA(0x0106),
    /** The publisher sends faster than the peak rate its PUBLISH declared. */
    RATE_EXCEEDED(0x0107),
    /** The disk a recording is written to is full. */
    DISK_FULL(0x0108),
    /** A write of a recording to its disk failed. */
    WRITE_FAILED(0x0109);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    /** The 16-bit code on the wire. */
    public int code() {
        return code;
    }

    /**
     * The error with this code, or null for a code this version does not define (a peer may send
     * one; treat it as fatal, like any other error).
     *
     * @param code the 16-bit code from an ERROR frame
     */
    public static ErrorCode ofCode(int code) {
        for (ErrorCode e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return null;
    }
}

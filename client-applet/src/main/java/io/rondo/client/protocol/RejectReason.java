package io.rondo.client.protocol;

/**
 * Why a server did not admit a stream: which resource was short (papers/000 Section 2.3), or why
 * the object cannot be streamed, or the recording made, at all. A client uses it to decide whether retrying can help.
 */
public enum RejectReason {
    /** A disk the stream touches has no time left in its round. */
    DISK_TIME(1),
    /** The server's buffer memory cannot hold another stream's fragments. */
    BUFFER_MEMORY(2),
    /** The server's outgoing network capacity is taken. */
    NETWORK(3),
    /** No object of that name. */
    NOT_FOUND(4),
    /** The object is discrete data (a document, an image): fetch it over HTTP. */
    NOT_CONTINUOUS(5),
    /** The client's profile cannot carry the object: its maximum rate or buffer is too small. */
    CLIENT_PROFILE(6),
    /** The start time lies past the object's end. */
    START_OUT_OF_RANGE(7),
    /** A PUBLISH without a valid token of the {@code publish} scope. */
    FORBIDDEN(8),
    /** A PUBLISH of a name an ordinary object or another live recording has. */
    NAME_TAKEN(9),
    /** A PUBLISH of a container Rondo does not record. */
    UNSUPPORTED_MEDIA(10);

    private final int code;

    RejectReason(int code) {
        this.code = code;
    }

    /** The reason byte on the wire. */
    public int code() {
        return code;
    }

    /** Whether the same OPEN may succeed later: true for a resource that was short. */
    public boolean transientShortage() {
        return this == DISK_TIME || this == BUFFER_MEMORY || this == NETWORK;
    }

    /**
     * The reason with this byte, or null if version 1 defines none.
     *
     * @param code the reason byte
     */
    public static RejectReason ofCode(int code) {
        for (RejectReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }
}

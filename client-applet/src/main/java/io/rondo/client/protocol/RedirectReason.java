package io.rondo.client.protocol;

/**
 * Why a server sends a client to another node rather than serving its OPEN (papers/004 Section 6:
 * each node of a cluster serves the objects on its own disks).
 */
public enum RedirectReason {
    /** This node does not hold the object; a node that does is named. */
    NOT_HERE(1),
    /** This node holds the object but has no room for the stream; a replica that has is named. */
    NO_ROOM(2);

    private final int code;

    RedirectReason(int code) {
        this.code = code;
    }

    /** The reason byte on the wire. */
    public int code() {
        return code;
    }

    /**
     * The reason with this byte, or null if the protocol defines none.
     *
     * @param code the reason byte
     */
    public static RedirectReason ofCode(int code) {
        for (RedirectReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }
}

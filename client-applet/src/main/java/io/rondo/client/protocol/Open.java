package io.rondo.client.protocol;

/**
 * OPEN: a client asks for a stream. Its header carries the client's protocol version; a server that
 * does not speak it answers ERROR {@link ErrorCode#UNSUPPORTED_VERSION}.
 *
 * @param objectName the object's name in the catalog, as in its HTTP path without the leading slash
 * @param startNs where to start, in nanoseconds of presentation time; the stream starts at the
 *     fragment boundary at or before it. With {@code fromLive}, how far behind the live edge to start
 * @param profile what the client can take
 * @param fromLive whether {@code startNs} counts back from the live edge (flag bit 0): 0 starts at the
 *     newest keyframe of an object being recorded; for an object not being recorded it counts back from
 *     the object's end
 * @param followsRedirects whether the client follows a REDIRECT (flag bit 1): a server sends one only then,
 *     and else answers REJECT as it would without a cluster
 */
public record Open(String objectName, long startNs, ClientProfile profile, boolean fromLive,
                   boolean followsRedirects) implements Frame {
    /** Header flag bit of {@link #fromLive()}. */
    public static final int FLAG_FROM_LIVE = 0x01;
    /** Header flag bit of {@link #followsRedirects()}. */
    public static final int FLAG_FOLLOWS_REDIRECTS = 0x02;

    /** Checks the name is non-empty UTF-8 of at most 65535 bytes, the start not negative. */
    public Open {
        if (Wire.utf8(objectName, "objectName").length == 0) {
            throw new IllegalArgumentException("objectName is empty");
        }
        Wire.nonNegative(startNs, "startNs");
        if (profile == null) {
            throw new IllegalArgumentException("profile is null");
        }
    }

    /**
     * An OPEN that counts {@code startNs} from the object's start.
     *
     * @param objectName the object's name in the catalog
     * @param startNs where to start, in nanoseconds of presentation time
     * @param profile what the client can take
     */
    public Open(String objectName, long startNs, ClientProfile profile) {
        this(objectName, startNs, profile, false, false);
    }

    /**
     * An OPEN of a client that does not follow REDIRECT.
     *
     * @param objectName the object's name in the catalog
     * @param startNs where to start, in nanoseconds of presentation time, or behind the live edge
     * @param profile what the client can take
     * @param fromLive whether {@code startNs} counts back from the live edge
     */
    public Open(String objectName, long startNs, ClientProfile profile, boolean fromLive) {
        this(objectName, startNs, profile, fromLive, false);
    }

    /**
     * This OPEN for another start: where a client that lost its stream picks it up again.
     *
     * @param positionNs the new start, in nanoseconds of presentation time, counted from the object's start
     */
    public Open at(long positionNs) {
        return new Open(objectName, positionNs, profile, false, followsRedirects);
    }

    @Override
    public FrameType type() {
        return FrameType.OPEN;
    }
}

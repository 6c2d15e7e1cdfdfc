package io.rondo.client.protocol;

/**
 * OPEN: a client asks for a stream. Its header carries the client's protocol version; a server that
 * does not speak it answers ERROR {@link ErrorCode#UNSUPPORTED_VERSION}.
 *
 * @param objectName the object's name in the catalog, as in its HTTP path without the leading slash
 * @param startNs where to start, in nanoseconds of presentation time; the stream starts at the
 *     fragment boundary at or before it
 * @param profile what the client can take
 */
public record Open(String objectName, long startNs, ClientProfile profile) implements Frame {
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

    @Override
    public FrameType type() {
        return FrameType.OPEN;
    }
}

package io.rondo.client.protocol;

/**
 * SEEK: the client moves playback. The server drops what it had queued and resumes at the fragment
 * boundary at or before {@code positionNs}; the first DATA of the new position has
 * {@link Data#discontinuity()} set, so the client can drop older DATA still in flight.
 *
 * @param positionNs the new position, in nanoseconds of presentation time; not negative
 */
public record Seek(long positionNs) implements Frame {
    /** Checks the position is not negative. */
    public Seek {
        Wire.nonNegative(positionNs, "positionNs");
    }

    @Override
    public FrameType type() {
        return FrameType.SEEK;
    }
}

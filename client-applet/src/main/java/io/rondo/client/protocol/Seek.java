package io.rondo.client.protocol;

/**
 * SEEK: the client moves playback. The server drops what it had queued and resumes at the fragment
 * boundary at or before {@code positionNs}; the first DATA of the new position has
 * {@link Data#discontinuity()} set, so the client can drop older DATA still in flight.
 *
 * @param positionNs the new position, in nanoseconds of presentation time; not negative. With
 *     {@code fromLive}, how far behind the live edge to resume
 * @param fromLive whether {@code positionNs} counts back from the live edge (flag bit 0); a player's
 *     "go live" is a SEEK from live of 0. For an object not being recorded it counts back from its end
 */
public record Seek(long positionNs, boolean fromLive) implements Frame {
    /** Header flag bit of {@link #fromLive()}. */
    public static final int FLAG_FROM_LIVE = 0x01;

    /** Checks the position is not negative. */
    public Seek {
        Wire.nonNegative(positionNs, "positionNs");
    }

    /**
     * A SEEK to a position counted from the object's start.
     *
     * @param positionNs the new position, in nanoseconds of presentation time; not negative
     */
    public Seek(long positionNs) {
        this(positionNs, false);
    }

    @Override
    public FrameType type() {
        return FrameType.SEEK;
    }
}

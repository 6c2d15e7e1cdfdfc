package io.rondo.client.protocol;

/**
 * LIVE: how far the recording of a live object has got, for its viewers. The server sends it right
 * after ACCEPT when the object is being recorded, once a round while the recording grows, and once
 * with {@code ended} when the recording ends; END follows once the viewer has been sent the last
 * fragment. After that the object is an ordinary one.
 *
 * @param recordedNs the media time cut so far, in nanoseconds: the live edge; not negative
 * @param durableNs the media time written and forced to disk, in nanoseconds; not negative and not
 *     past {@code recordedNs}
 * @param ended whether the recording has ended (flag bit 0): {@code recordedNs} is then its length
 */
public record Live(long recordedNs, long durableNs, boolean ended) implements Frame {
    /** Header flag bit of {@link #ended()}. */
    public static final int FLAG_ENDED = 0x01;

    /** Checks the times are not negative and the durable time is not past the recorded one. */
    public Live {
        Wire.nonNegative(recordedNs, "recordedNs");
        Wire.nonNegative(durableNs, "durableNs");
        if (durableNs > recordedNs) {
            throw new IllegalArgumentException("durableNs " + durableNs + " is past recordedNs " + recordedNs);
        }
    }

    @Override
    public FrameType type() {
        return FrameType.LIVE;
    }
}

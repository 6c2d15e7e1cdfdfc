package io.rondo.client.protocol;

/**
 * DURABLE: what of a recording a crash can no longer lose. The server writes a recording one
 * fragment a round and forces each round's write and the fragment index to disk; it tells the
 * publisher so once a round while the recording grows, and once more, for the last round, before
 * END. A publisher learns from it what it would have to send again after a crash.
 *
 * @param fragments how many fragments of the recording are durable: written and forced to disk,
 *     with their index; not negative
 * @param durableNs the recording's media time durable up to, in nanoseconds; not negative
 * @param bytesReceived MEDIA bytes the server has received on this stream so far; not negative
 */
public record Durable(long fragments, long durableNs, long bytesReceived) implements Frame {
    /** Checks no field is negative. */
    public Durable {
        Wire.nonNegative(fragments, "fragments");
        Wire.nonNegative(durableNs, "durableNs");
        Wire.nonNegative(bytesReceived, "bytesReceived");
    }

    @Override
    public FrameType type() {
        return FrameType.DURABLE;
    }
}

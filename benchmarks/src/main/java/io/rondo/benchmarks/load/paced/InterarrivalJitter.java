package io.rondo.benchmarks.load.paced;

/**
 * RFC 3550 Section 6.4.1's interarrival jitter: the mean deviation of the difference in transit
 * time between consecutive packets, smoothed with gain 1/16 ({@code J += (|D| - J) / 16}). Here a
 * "packet" is a read (or a DATA) and its "timestamp" is when it was due, so that the transit time
 * is completion minus due time and {@code D} is how much more (or less) late a read was than the
 * one before: a stream whose reads are all equally late has no interarrival jitter. Not
 * thread-safe: one stream's reader owns it.
 */
public final class InterarrivalJitter {

    private static final double GAIN = 16.0;

    private double jitterNs;
    private long previousTransitNs;
    private long count;

    /**
     * One read: it was due at {@code dueNs} and done at {@code doneNs}, on one clock.
     *
     * @param dueNs when it was due (RFC 3550's sender timestamp)
     * @param doneNs when it completed (its arrival)
     */
    public void arrived(long dueNs, long doneNs) {
        long transitNs = doneNs - dueNs;
        if (count > 0) {
            long d = Math.abs(transitNs - previousTransitNs);
            jitterNs += (d - jitterNs) / GAIN;
        }
        previousTransitNs = transitNs;
        count++;
    }

    /** The estimate after the reads so far, in nanoseconds; 0 before the second read. */
    public double jitterNs() {
        return jitterNs;
    }

    /** Reads counted. */
    public long count() {
        return count;
    }
}

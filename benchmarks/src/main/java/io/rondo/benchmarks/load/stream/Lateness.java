package io.rondo.benchmarks.load.stream;

import org.HdrHistogram.Histogram;

/**
 * How late fragments arrive at a client, against the deadlines the server puts in DATA: the
 * promise of an admitted stream (DESIGN.md, papers/001 Section 1.1) seen from the receiving end.
 * A DATA's {@code deadlineNs} counts on the stream's clock, which starts when the server sends
 * ACCEPT; the client starts its own copy of that clock when ACCEPT arrives, so the peers need no
 * common wall clock (docs/stream-protocol.md). Lateness is then the arrival of the frame's last
 * byte minus that deadline: negative is early, positive is late. On loopback the one-way delay
 * the client's clock starts behind by is microseconds.
 *
 * <p>HdrHistogram holds no negative values, and an offset would cost the early side its
 * precision, so early and late fragments go to a histogram each and percentiles are read across
 * the pair. Thread-safe: the event loops of many streams record into one.
 */
final class Lateness {

    private static final int SIGNIFICANT_DIGITS = 3;

    /** Magnitudes of lateness at or below zero: how early the on-time fragments were. */
    private final Histogram early = new Histogram(SIGNIFICANT_DIGITS);
    private final Histogram late = new Histogram(SIGNIFICANT_DIGITS);
    private long minNs = Long.MAX_VALUE;
    private long maxNs = Long.MIN_VALUE;

    /**
     * A fragment's lateness: arrival minus (the arrival of ACCEPT plus the DATA's deadline).
     *
     * @param arrivalNs when the DATA's last byte arrived, on the client's monotonic clock
     * @param acceptArrivalNs when ACCEPT arrived, on the same clock
     * @param deadlineNs the DATA's {@code deadlineNs}, on the stream's clock
     * @return nanoseconds after the deadline: negative is early, positive is late
     */
    static long of(long arrivalNs, long acceptArrivalNs, long deadlineNs) {
        return arrivalNs - (acceptArrivalNs + deadlineNs);
    }

    /** Whether a fragment of this lateness is LATE: its last byte arrived after its deadline. */
    static boolean isLate(long latenessNs) {
        return latenessNs > 0;
    }

    /** Counts one fragment. */
    synchronized void record(long latenessNs) {
        if (isLate(latenessNs)) {
            late.recordValue(latenessNs);
        } else {
            early.recordValue(-latenessNs);
        }
        minNs = Math.min(minNs, latenessNs);
        maxNs = Math.max(maxNs, latenessNs);
    }

    /** Fragments counted. */
    synchronized long count() {
        return early.getTotalCount() + late.getTotalCount();
    }

    /** Fragments counted that were LATE. */
    synchronized long lateCount() {
        return late.getTotalCount();
    }

    /** The earliest fragment's lateness, exact; 0 if none was counted. */
    synchronized long minNs() {
        return count() == 0 ? 0 : minNs;
    }

    /** The latest fragment's lateness, exact; 0 if none was counted. */
    synchronized long maxNs() {
        return count() == 0 ? 0 : maxNs;
    }

    /**
     * The lateness that {@code percentile} per cent of the fragments were at or below, to three
     * significant digits.
     *
     * @param percentile 0 to 100
     * @return nanoseconds, negative for early; 0 if no fragment was counted
     */
    synchronized long percentileNs(double percentile) {
        if (percentile < 0 || percentile > 100) {
            throw new IllegalArgumentException("percentile " + percentile + " is outside 0..100");
        }
        long earlyCount = early.getTotalCount();
        long total = earlyCount + late.getTotalCount();
        if (total == 0) {
            return 0;
        }
        // The rank of the percentile, by nearest rank; the epsilon keeps 99 of 100 from rounding up to 100.
        long rank = Math.max(1, (long) Math.ceil(percentile * total / 100 - 1e-9));
        if (rank <= earlyCount) {
            // The rank-th smallest lateness is the (earlyCount - rank + 1)-th largest earliness.
            long fromTop = earlyCount - rank + 1;
            return -early.getValueAtPercentile(100.0 * fromTop / earlyCount);
        }
        long lateCount = total - earlyCount;
        return late.getValueAtPercentile(100.0 * (rank - earlyCount) / lateCount);
    }
}

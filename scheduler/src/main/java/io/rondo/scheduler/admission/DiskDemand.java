package io.rondo.scheduler.admission;

/**
 * What one stream asks of one disk each round: the fragment it reads (or, recording, writes)
 * there, on average, at its largest, and how much the sizes spread (a constant-bit-rate stream
 * has all three the same size and no spread).
 *
 * @param averageBytesPerRound the mean fragment size on this disk
 * @param peakBytesPerRound    the largest fragment size on this disk
 * @param sdBytesPerRound      the standard deviation of the fragment sizes on this disk
 * @param write                true for a recording's fragments, written each round and charged on
 *                             the disk's write curve (papers/000 Section 2.1); false for reads
 */
public record DiskDemand(long averageBytesPerRound, long peakBytesPerRound, double sdBytesPerRound, boolean write) {

    public DiskDemand {
        if (averageBytesPerRound < 0) {
            throw new IllegalArgumentException("an average fragment must not be negative, was " + averageBytesPerRound);
        }
        if (peakBytesPerRound < averageBytesPerRound) {
            throw new IllegalArgumentException("a peak fragment (" + peakBytesPerRound
                + " B) must not be smaller than the average one (" + averageBytesPerRound + " B)");
        }
        if (!(sdBytesPerRound >= 0) || Double.isInfinite(sdBytesPerRound)) {
            throw new IllegalArgumentException("a fragment size deviation must be finite and not negative, was "
                + sdBytesPerRound);
        }
    }

    /** A read demand. */
    public DiskDemand(long averageBytesPerRound, long peakBytesPerRound, double sdBytesPerRound) {
        this(averageBytesPerRound, peakBytesPerRound, sdBytesPerRound, false);
    }

    /**
     * A read demand whose spread is unknown: taken at its largest, the Bhatia-Davis bound
     * {@code sqrt((peak - average) * average)} that no sizes between 0 and the peak with that
     * average exceed.
     */
    public DiskDemand(long averageBytesPerRound, long peakBytesPerRound) {
        this(averageBytesPerRound, peakBytesPerRound,
            Math.sqrt(Math.max(0.0, (double) (peakBytesPerRound - averageBytesPerRound) * averageBytesPerRound)));
    }

    /** A constant-bit-rate read demand: every fragment {@code bytesPerRound} long. */
    public static DiskDemand constant(long bytesPerRound) {
        return new DiskDemand(bytesPerRound, bytesPerRound, 0);
    }

    /**
     * A recording's demand, declared by its peak: every round's fragment taken at
     * {@code peakBytesPerRound}, written and charged on the write curve.
     */
    public static DiskDemand recording(long peakBytesPerRound) {
        return new DiskDemand(peakBytesPerRound, peakBytesPerRound, 0, true);
    }

    /**
     * What {@code fragments} fragments in a row take, read as one IO: that many times the average
     * and the peak, the spread growing as the square root (the sizes taken as independent). A
     * recording's writes are not gathered so: it stays as it is.
     */
    public DiskDemand times(int fragments) {
        if (fragments < 1) {
            throw new IllegalArgumentException("a read holds at least one fragment, was " + fragments);
        }
        if (fragments == 1 || write) {
            return this;
        }
        return new DiskDemand(averageBytesPerRound * fragments, peakBytesPerRound * fragments,
            sdBytesPerRound * Math.sqrt(fragments), false);
    }
}

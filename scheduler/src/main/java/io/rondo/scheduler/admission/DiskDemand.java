package io.rondo.scheduler.admission;

/**
 * What one stream asks of one disk each round: the fragment it reads there, on average and at
 * its largest (a constant-bit-rate stream has both equal).
 *
 * @param averageBytesPerRound the mean fragment size on this disk
 * @param peakBytesPerRound    the largest fragment size on this disk
 */
public record DiskDemand(long averageBytesPerRound, long peakBytesPerRound) {

    public DiskDemand {
        if (averageBytesPerRound < 0) {
            throw new IllegalArgumentException("an average fragment must not be negative, was " + averageBytesPerRound);
        }
        if (peakBytesPerRound < averageBytesPerRound) {
            throw new IllegalArgumentException("a peak fragment (" + peakBytesPerRound
                + " B) must not be smaller than the average one (" + averageBytesPerRound + " B)");
        }
    }

    /** A constant-bit-rate demand: every fragment {@code bytesPerRound} long. */
    public static DiskDemand constant(long bytesPerRound) {
        return new DiskDemand(bytesPerRound, bytesPerRound);
    }
}

package io.rondo.scheduler.sim.cycle;

import io.rondo.scheduler.disk.DiskModel;

/**
 * The disk of papers/003 Section 3, which gives only two numbers: a transfer rate (50 MB/s) and
 * an average access time of 10 ms, seek, rotation and settling included. Rondo models it with a
 * seek of {@code 2 ms + b sqrt(d / C)} over a distance {@code d} of a capacity {@code C} and a
 * 6 ms revolution (10,000 rpm): between two uniformly random positions the mean of
 * {@code sqrt(d / C)} is 8/15, so {@code b} is chosen to make the mean seek the access time less
 * half a revolution, and a random access averages the paper's figure. Reads in SCAN order seek
 * much less than that; the admission and {@code u_t} charge every IO the full average, as the
 * paper's model does.
 *
 * @param accessNs       the average random access time
 * @param bytesPerSecond the transfer rate, the same over the whole disk
 */
public record PaperDisk(long accessNs, double bytesPerSecond) implements DiskModel {

    /** The disk's size: 100 GB; only distances over it matter. */
    static final long CAPACITY_BYTES = 100_000_000_000L;
    static final long REVOLUTION_NS = 6_000_000;
    static final long SETTLE_NS = 2_000_000;

    public PaperDisk {
        if (accessNs < REVOLUTION_NS / 2 + SETTLE_NS) {
            throw new IllegalArgumentException("an average access of " + accessNs + " ns is shorter than half a "
                + "revolution and the settling time, " + (REVOLUTION_NS / 2 + SETTLE_NS) + " ns");
        }
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("the transfer rate must be positive, was " + bytesPerSecond);
        }
    }

    /** The papers/003 disk: 10 ms average access, 50 MB/s. */
    public static PaperDisk paper() {
        return new PaperDisk(10_000_000, 50e6);
    }

    /** The time one IO of {@code bytes} is charged: the average access and the transfer. */
    public long chargedNs(long bytes) {
        return accessNs + (long) Math.ceil(bytes * 1e9 / bytesPerSecond);
    }

    @Override
    public long capacityBytes() {
        return CAPACITY_BYTES;
    }

    @Override
    public long seekNs(long fromPosition, long toPosition) {
        long distance = Math.abs(toPosition - fromPosition);
        if (distance == 0) {
            return 0;
        }
        return SETTLE_NS + (long) (sqrtCoefficientNs() * Math.sqrt((double) distance / CAPACITY_BYTES));
    }

    @Override
    public long maxSeekNs() {
        return SETTLE_NS + (long) sqrtCoefficientNs();
    }

    @Override
    public long worstCaseRotationNs() {
        return REVOLUTION_NS;
    }

    @Override
    public long transferNs(long position, long sizeBytes) {
        return (long) Math.ceil(sizeBytes * 1e9 / bytesPerSecond);
    }

    private double sqrtCoefficientNs() {
        return (accessNs - REVOLUTION_NS / 2.0 - SETTLE_NS) * 15 / 8;
    }
}

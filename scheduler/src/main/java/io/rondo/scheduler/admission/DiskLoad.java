package io.rondo.scheduler.admission;

/**
 * What streams ask of one disk's round, summed: how many they are, their IO times on the
 * policy's curve for the fragment it charges (for ADM1 and ADM3 the round's time; for ADM2
 * XTREAM's charge, and the share by which a retry-after is told), their fragments' mean
 * bytes, variances and peaks, and how much longer their writes take than reads of the same
 * fragments would (the write curve above the read curve), which a whole round's charge adds.
 */
record DiskLoad(int streams, long ioNs, double bytes, double varianceBytes2, double peakBytes, long writePenaltyNs) {

    static final DiskLoad NONE = new DiskLoad(0, 0, 0, 0, 0, 0);

    DiskLoad plus(DiskLoad other) {
        return new DiskLoad(streams + other.streams, ioNs + other.ioNs, bytes + other.bytes,
            varianceBytes2 + other.varianceBytes2, peakBytes + other.peakBytes, writePenaltyNs + other.writePenaltyNs);
    }

    DiskLoad minus(DiskLoad other) {
        return new DiskLoad(streams - other.streams, ioNs - other.ioNs, bytes - other.bytes,
            Math.max(0, varianceBytes2 - other.varianceBytes2), peakBytes - other.peakBytes,
            writePenaltyNs - other.writePenaltyNs);
    }
}

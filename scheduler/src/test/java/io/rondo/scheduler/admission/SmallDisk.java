package io.rondo.scheduler.admission;

import io.rondo.scheduler.disk.DiskModel;

/**
 * A disk whose curves a reader can work out by hand. 3,000,000 bytes; a seek costs 1 ms plus
 * 1 ns per byte of distance (so the full stroke is 4 ms, and the mean distance of two uniform
 * points, a third of the disk, costs 1 + 1 = 2 ms); a revolution is 4 ms; transfer is 10 MB/s,
 * 100 ns a byte, everywhere. So an IO of 100,000 bytes (10 ms of transfer) takes
 * 2 + 2 + 10 = 14 ms on the mean curve and 4 + 4 + 10 = 18 ms on the min curve; one of 150,000
 * bytes 19 ms and 23 ms.
 */
final class SmallDisk implements DiskModel {

    static final long MS = 1_000_000L;
    static final long CAPACITY = 3_000_000L;

    @Override
    public long capacityBytes() {
        return CAPACITY;
    }

    @Override
    public long seekNs(long fromPosition, long toPosition) {
        long distance = Math.abs(fromPosition - toPosition);
        return distance == 0 ? 0 : MS + distance;
    }

    @Override
    public long maxSeekNs() {
        return MS + CAPACITY;
    }

    @Override
    public long worstCaseRotationNs() {
        return 4 * MS;
    }

    @Override
    public long transferNs(long position, long sizeBytes) {
        return sizeBytes * 100;
    }

    @Override
    public String toString() {
        return "small test disk";
    }
}

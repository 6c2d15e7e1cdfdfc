package io.rondo.scheduler;

import io.rondo.scheduler.disk.DiskModel;

/**
 * A disk whose numbers a reader can check by hand: a seek costs 1 ms plus 1 ms per 1000 bytes of
 * distance (nothing for distance 0), the worst-case rotation is 2 ms, and a transfer costs 1 ms
 * per 1000 bytes, wherever it lies. So a 1000-byte request 1000 bytes from the head is estimated
 * at 2 + 2 + 1 = 5 ms.
 */
final class TestDisk implements DiskModel {

    static final long MS = 1_000_000L;
    /** Seek and transfer both cost 1 ms per 1000 bytes: 1000 ns a byte. */
    static final long NS_PER_BYTE = 1_000L;
    static final long ROTATION_NS = 2 * MS;

    private final long capacityBytes;

    TestDisk() {
        this(1_000_000);
    }

    TestDisk(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public long seekNs(long fromPosition, long toPosition) {
        long distance = Math.abs(fromPosition - toPosition);
        return distance == 0 ? 0 : MS + distance * NS_PER_BYTE;
    }

    @Override
    public long maxSeekNs() {
        return seekNs(0, capacityBytes - 1);
    }

    @Override
    public long worstCaseRotationNs() {
        return ROTATION_NS;
    }

    @Override
    public long transferNs(long position, long sizeBytes) {
        return sizeBytes * NS_PER_BYTE;
    }

    /** Figure 6's term for one request when its rotation is unknown: worst-case rotation and transfer. */
    long worstCostNs(DiskRequest request) {
        return ROTATION_NS + transferNs(request.position(), request.sizeBytes());
    }

    @Override
    public String toString() {
        return "test disk of " + capacityBytes + " B";
    }
}

package io.rondo.scheduler;

import io.rondo.scheduler.disk.DiskModel;

/**
 * A sweep of the head over the scan list (papers/001 Section 4): the requests chosen for it, where
 * the head is and which way it moves. The direction is chosen when a sweep starts
 * ({@code determineScanDirection}, Figure 7) and holds until the list runs dry; the head serves the
 * list from its front going forward, from its back going backward, and a newcomer joins a sweep
 * under way only where the head has yet to pass (Figure 5).
 *
 * <p>The estimates are Figure 6's ({@code estimateSvcTime}), kept by the {@link ScanList}.
 */
final class Sweep {

    private final DiskModel disk;
    private final ScanList list;
    private ScanDirection direction = ScanDirection.UNDEFINED;
    private long headPosition;

    Sweep(DiskModel disk, long initialHead) {
        this.disk = disk;
        this.list = new ScanList(disk, 64);
        this.headPosition = initialHead;
    }

    /** The requests of the sweep, in position order. */
    ScanList list() {
        return list;
    }

    long headPosition() {
        return headPosition;
    }

    ScanDirection direction() {
        return direction;
    }

    /** The head has just served a request at {@code position}. */
    void headAt(long position) {
        headPosition = position;
    }

    /** Ends the sweep under way: the next one chooses its direction afresh. */
    void restart() {
        direction = ScanDirection.UNDEFINED;
    }

    /** A sweep yet to start takes the direction Figure 7 chooses for what the list holds. */
    void chooseDirection() {
        if (direction == ScanDirection.UNDEFINED && !list.isEmpty()) {
            direction = list.directionFrom(headPosition);
        }
    }

    /** Figure 5: while a sweep is under way, a newcomer joins it only if the head has yet to pass it. */
    boolean isAhead(DiskRequest request) {
        return switch (direction) {
            case UNDEFINED -> true;
            case FORWARD -> request.position() >= headPosition;
            case BACKWARD -> request.position() <= headPosition;
        };
    }

    /** The next request in sweep order, taken out of the list; null if the list is empty. */
    DiskRequest pop() {
        if (list.isEmpty()) {
            return null;
        }
        chooseDirection();
        return direction == ScanDirection.FORWARD ? list.removeFirst() : list.removeLast();
    }

    /** The estimated time to serve the list from the head, in sweep order (Figure 6). */
    long estimateNs() {
        return list.estimateNs(headPosition, direction);
    }

    /**
     * Whether a sweep estimated at {@code estimateNs} may end past the {@code leftNs} its period has
     * left: only if its last request is a D-request and everything before it still fits.
     */
    boolean lastMayOverrun(long estimateNs, long leftNs) {
        return !list.lastInSweep(headPosition, direction).isContinuous()
            && estimateNs - list.lastInSweepCostNs(headPosition, direction) <= leftNs;
    }

    /** The estimated time to serve {@code request} straight from the head: the seek, then its cost. */
    long fromHeadNs(DiskRequest request) {
        return disk.seekNs(headPosition, request.position()) + costOf(request);
    }

    /** Figure 6's per-request term: the rotational delay (the worst case unless known) and the transfer. */
    long costOf(DiskRequest request) {
        long rotationNs = request.rotationNs() >= 0 ? request.rotationNs() : disk.worstCaseRotationNs();
        return rotationNs + disk.transferNs(request.position(), request.sizeBytes());
    }
}

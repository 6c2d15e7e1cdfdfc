package io.rondo.scheduler;

import io.rondo.scheduler.disk.DiskModel;

import java.util.function.Consumer;

/**
 * The scan list of papers/001 Section 4: the requests chosen for the current sweep, ordered by
 * position, served from the head going forward or from the tail going backward.
 *
 * <p>The estimate of Figure 6 (seek from the head to the first request in sweep order, then
 * between consecutive requests, plus a rotational delay and a transfer for each) is kept
 * incrementally: the list holds the sum of the seeks between neighbours and the sum of the
 * per-request costs, so inserting or removing a request updates the estimate with at most three
 * seek evaluations, and reading it costs one more. Figure 6 re-walks the list for every estimate,
 * which makes a fill of {@code k} requests into a list of {@code n} cost {@code O(k * n)} seek
 * evaluations; here it costs {@code O(k)} of them plus {@code O(k * log n)} comparisons and the
 * array shifts of the insertions.
 *
 * <p>Requests of equal position keep their insertion order. Backed by an array with free room at
 * both ends, since a forward sweep removes from the front and a backward sweep from the back.
 */
final class ScanList {

    private final DiskModel disk;
    private DiskRequest[] items;
    private int lo;
    private int hi;
    private long neighbourSeekNs;
    private long requestCostNs;
    private int continuousCount;

    ScanList(DiskModel disk, int initialCapacity) {
        this.disk = disk;
        this.items = new DiskRequest[Math.max(4, initialCapacity)];
        this.lo = items.length / 2;
        this.hi = lo;
    }

    int size() {
        return hi - lo;
    }

    boolean isEmpty() {
        return hi == lo;
    }

    int continuousCount() {
        return continuousCount;
    }

    /** The request at {@code index} in position order. */
    DiskRequest get(int index) {
        return items[lo + index];
    }

    /** The request of lowest position. */
    DiskRequest first() {
        return isEmpty() ? null : items[lo];
    }

    /** The request of highest position. */
    DiskRequest last() {
        return isEmpty() ? null : items[hi - 1];
    }

    /**
     * Inserts a request in position order; its {@code estimatedCostNs} (rotation and transfer) must
     * be set. Returns its index, for a {@link #removeAt} that takes it back out.
     */
    int insert(DiskRequest request) {
        int index = upperBound(request.position());
        int size = size();
        DiskRequest before = index > 0 ? get(index - 1) : null;
        DiskRequest after = index < size ? get(index) : null;
        if (before != null && after != null) {
            neighbourSeekNs -= seek(before, after);
        }
        if (before != null) {
            neighbourSeekNs += seek(before, request);
        }
        if (after != null) {
            neighbourSeekNs += seek(request, after);
        }
        makeRoomAt(index);
        items[lo + index] = request;
        requestCostNs += request.estimatedCostNs;
        if (request.isContinuous()) {
            continuousCount++;
        }
        return index;
    }

    DiskRequest removeFirst() {
        return removeAt(0);
    }

    DiskRequest removeLast() {
        return removeAt(size() - 1);
    }

    DiskRequest removeAt(int index) {
        int size = size();
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " in a scan list of " + size);
        }
        DiskRequest request = get(index);
        DiskRequest before = index > 0 ? get(index - 1) : null;
        DiskRequest after = index + 1 < size ? get(index + 1) : null;
        if (before != null) {
            neighbourSeekNs -= seek(before, request);
        }
        if (after != null) {
            neighbourSeekNs -= seek(request, after);
        }
        if (before != null && after != null) {
            neighbourSeekNs += seek(before, after);
        }
        if (index < size / 2) {
            System.arraycopy(items, lo, items, lo + 1, index);
            items[lo++] = null;
        } else {
            System.arraycopy(items, lo + index + 1, items, lo + index, size - index - 1);
            items[--hi] = null;
        }
        requestCostNs -= request.estimatedCostNs;
        if (request.isContinuous()) {
            continuousCount--;
        }
        return request;
    }

    /**
     * Takes out every request of one class ({@code continuous} or discrete), handing each to
     * {@code removed} in position order, and keeps the others in order.
     */
    void removeAll(boolean continuous, Consumer<DiskRequest> removed) {
        int kept = lo;
        for (int i = lo; i < hi; i++) {
            DiskRequest request = items[i];
            if (request.isContinuous() == continuous) {
                removed.accept(request);
            } else {
                items[kept++] = request;
            }
        }
        for (int i = kept; i < hi; i++) {
            items[i] = null;
        }
        hi = kept;
        recomputeSums();
    }

    /** Figure 7: sweep towards whichever end of the list is nearer the head. */
    ScanDirection directionFrom(long headPosition) {
        long front = first().position();
        long back = last().position();
        boolean frontNearer = Math.abs(front - headPosition) < Math.abs(back - headPosition);
        boolean onlyOneAhead = size() == 1 && front > headPosition;
        return frontNearer || onlyOneAhead ? ScanDirection.FORWARD : ScanDirection.BACKWARD;
    }

    /** Figure 6: the estimated time to serve the whole list from the head, sweeping {@code direction}. */
    long estimateNs(long headPosition, ScanDirection direction) {
        if (isEmpty()) {
            return 0;
        }
        DiskRequest start = resolve(headPosition, direction) == ScanDirection.FORWARD ? first() : last();
        return disk.seekNs(headPosition, start.position()) + neighbourSeekNs + requestCostNs;
    }

    /** The request a sweep in {@code direction} serves last. */
    DiskRequest lastInSweep(long headPosition, ScanDirection direction) {
        return resolve(headPosition, direction) == ScanDirection.FORWARD ? last() : first();
    }

    /** The estimated share of {@link #estimateNs} that the last request of the sweep accounts for. */
    long lastInSweepCostNs(long headPosition, ScanDirection direction) {
        if (size() == 1) {
            return estimateNs(headPosition, direction);
        }
        boolean forward = resolve(headPosition, direction) == ScanDirection.FORWARD;
        DiskRequest last = forward ? last() : first();
        DiskRequest previous = forward ? items[hi - 2] : items[lo + 1];
        return seek(previous, last) + last.estimatedCostNs;
    }

    /** An estimate that holds wherever the head is: a full-stroke seek to enter the list. */
    long estimateFromAnywhereNs() {
        return isEmpty() ? 0 : disk.maxSeekNs() + neighbourSeekNs + requestCostNs;
    }

    private ScanDirection resolve(long headPosition, ScanDirection direction) {
        return direction == ScanDirection.UNDEFINED ? directionFrom(headPosition) : direction;
    }

    private long seek(DiskRequest from, DiskRequest to) {
        return disk.seekNs(from.position(), to.position());
    }

    private int upperBound(long position) {
        int low = lo;
        int high = hi;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (items[mid].position() <= position) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low - lo;
    }

    /** Opens a free slot at {@code index}, moving whichever side of it is shorter. */
    private void makeRoomAt(int index) {
        int size = size();
        boolean roomAfter = hi < items.length;
        boolean roomBefore = lo > 0;
        if (!roomAfter && !roomBefore) {
            DiskRequest[] grown = new DiskRequest[items.length * 2];
            int newLo = (grown.length - size) / 2;
            System.arraycopy(items, lo, grown, newLo, size);
            items = grown;
            lo = newLo;
            hi = newLo + size;
        }
        if (hi < items.length && (index >= size / 2 || lo == 0)) {
            System.arraycopy(items, lo + index, items, lo + index + 1, size - index);
            hi++;
        } else {
            System.arraycopy(items, lo, items, lo - 1, index);
            lo--;
        }
    }

    private void recomputeSums() {
        neighbourSeekNs = 0;
        requestCostNs = 0;
        continuousCount = 0;
        for (int i = lo; i < hi; i++) {
            requestCostNs += items[i].estimatedCostNs;
            if (items[i].isContinuous()) {
                continuousCount++;
            }
            if (i > lo) {
                neighbourSeekNs += seek(items[i - 1], items[i]);
            }
        }
    }
}

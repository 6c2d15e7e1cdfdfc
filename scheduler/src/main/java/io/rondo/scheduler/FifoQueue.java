package io.rondo.scheduler;

/**
 * The fifo queue of papers/001 Section 4: every D-request waiting for a place in the schedule, in
 * arrival order, so that selection is FCFS and no request starves (Section 2.3).
 *
 * <p>An intrusive doubly linked list: the links live in the requests, so queueing allocates
 * nothing, and the fill procedure can take a request from the middle (one that lies ahead of the
 * head while older ones lie behind it) in constant time.
 */
final class FifoQueue {

    private DiscreteRequest first;
    private DiscreteRequest last;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    DiscreteRequest first() {
        return first;
    }

    /** The request after {@code request} in arrival order, or null. */
    DiscreteRequest next(DiscreteRequest request) {
        return request.fifoNext;
    }

    /** Appends a newly arrived request. Arrivals must come in order; use {@link #putBack} otherwise. */
    void addLast(DiscreteRequest request) {
        if (request.inFifo) {
            throw new IllegalStateException(request + " is queued already");
        }
        if (last != null && request.arrivedBefore(last)) {
            throw new IllegalArgumentException(request + " arrived before " + last + ", the last queued request");
        }
        linkAfter(last, request);
    }

    /** Returns a request taken out earlier to its place in arrival order. */
    void putBack(DiscreteRequest request) {
        if (request.inFifo) {
            throw new IllegalStateException(request + " is queued already");
        }
        DiscreteRequest before = last;
        while (before != null && request.arrivedBefore(before)) {
            before = before.fifoPrevious;
        }
        linkAfter(before, request);
    }

    void remove(DiscreteRequest request) {
        if (!request.inFifo) {
            throw new IllegalStateException(request + " is not queued");
        }
        if (request.fifoPrevious == null) {
            first = request.fifoNext;
        } else {
            request.fifoPrevious.fifoNext = request.fifoNext;
        }
        if (request.fifoNext == null) {
            last = request.fifoPrevious;
        } else {
            request.fifoNext.fifoPrevious = request.fifoPrevious;
        }
        request.fifoPrevious = null;
        request.fifoNext = null;
        request.inFifo = false;
        size--;
    }

    private void linkAfter(DiscreteRequest before, DiscreteRequest request) {
        DiscreteRequest after = before == null ? first : before.fifoNext;
        request.fifoPrevious = before;
        request.fifoNext = after;
        if (before == null) {
            first = request;
        } else {
            before.fifoNext = request;
        }
        if (after == null) {
            last = request;
        } else {
            after.fifoPrevious = request;
        }
        request.inFifo = true;
        size++;
    }
}

package io.rondo.scheduler;

import io.rondo.scheduler.policy.Limitation;
import io.rondo.scheduler.policy.QueueOrdering;
import io.rondo.scheduler.policy.SchedulingPolicy;

/**
 * A period in which D-requests are served (papers/001 Section 3), and how they are chosen from
 * the fifo queue in it: for the SCAN orderings, Figure 5's {@code fillScanList} into the sweep,
 * as often as the ordering allows; for FCFS, the oldest first (Figure 4). A period is bounded by
 * its end, or under a static-number limitation by the D-requests a subround may take.
 *
 * <p>Under a non-incremental ordering only the D-requests that arrived before the period began
 * are chosen. Where the period may spill over, the last request of a sweep may end past it if it
 * is a D-request: so no C-request is ever estimated past its (sub)round.
 */
final class DiscretePeriod {

    private final FifoQueue fifo;
    private final Sweep sweep;
    private QueueOrdering ordering;
    private Limitation limitation;
    private int discreteLimit;

    private long startNs;
    private long endNs;
    private boolean spillAllowed;
    private boolean fresh;
    private int discreteThisSubround;

    DiscretePeriod(FifoQueue fifo, Sweep sweep) {
        this.fifo = fifo;
        this.sweep = sweep;
    }

    /** Chooses as {@code policy} says from the next period on. */
    void apply(SchedulingPolicy policy) {
        ordering = policy.ordering();
        limitation = policy.limitation();
        discreteLimit = policy.discreteLimit();
    }

    /** A subround begins: its count of D-requests starts again at zero. */
    void beginSubround() {
        discreteThisSubround = 0;
    }

    /**
     * A period runs from {@code fromNs} to {@code toNs}; with {@code spill}, the last request of a
     * sweep may end past it.
     */
    void begin(long fromNs, long toNs, boolean spill) {
        startNs = fromNs;
        endNs = toNs;
        spillAllowed = spill;
        fresh = true;
    }

    /** The D-request to serve now under the period's ordering, or null if the period takes no more. */
    DiskRequest next(long nowNs) {
        return ordering.isScan() ? nextFromScanList(nowNs) : nextInArrivalOrder(nowNs);
    }

    /** Figure 4's loop body for the SCAN orderings: fill as the ordering allows, then serve. */
    DiskRequest nextFromScanList(long nowNs) {
        if (mayFill()) {
            fillScanList(nowNs);
        }
        if (sweep.list().isEmpty() && sweep.direction() != ScanDirection.UNDEFINED) {
            sweep.restart();
            if (mayFill()) {
                fillScanList(nowNs);
            }
        }
        return sweep.pop();
    }

    private boolean mayFill() {
        return switch (ordering) {
            case INCREMENTAL_SCAN -> true;
            case GATED_INCREMENTAL_SCAN -> fresh || sweep.list().isEmpty();
            default -> fresh;
        };
    }

    /** Figure 4's FCFS cases: serve the oldest D-request while the period lasts. */
    private DiskRequest nextInArrivalOrder(long nowNs) {
        DiscreteRequest oldest = fifo.first();
        if (oldest == null || !selectable(oldest)) {
            return null;
        }
        if (limitation == Limitation.STATIC_NUMBER) {
            if (discreteThisSubround >= discreteLimit) {
                return null;
            }
        } else {
            long leftNs = endNs - nowNs;
            long estimateNs = sweep.fromHeadNs(oldest);
            if (spillAllowed ? leftNs <= 0 : estimateNs > leftNs) {
                return null;
            }
        }
        fifo.remove(oldest);
        discreteThisSubround++;
        return oldest;
    }

    /**
     * Figure 5: take D-requests from the fifo queue in arrival order into the scan list while the
     * estimated sweep fits the period, skipping those the sweep has passed.
     */
    private void fillScanList(long nowNs) {
        fresh = false;
        ScanList scanList = sweep.list();
        boolean counted = limitation == Limitation.STATIC_NUMBER;
        long leftNs = endNs - nowNs;
        long estimateNs = sweep.estimateNs();
        DiscreteRequest candidate = fifo.first();
        while (candidate != null && (counted ? discreteThisSubround < discreteLimit : estimateNs < leftNs)) {
            DiscreteRequest following = fifo.next(candidate);
            if (!selectable(candidate)) {
                break;
            }
            if (sweep.isAhead(candidate)) {
                candidate.estimatedCostNs = sweep.costOf(candidate);
                int index = scanList.insert(candidate);
                if (!counted) {
                    long withCandidateNs = sweep.estimateNs();
                    if (withCandidateNs > leftNs && !overrunAllowed(withCandidateNs, leftNs)) {
                        scanList.removeAt(index);
                        break;
                    }
                    estimateNs = withCandidateNs;
                }
                fifo.remove(candidate);
                discreteThisSubround++;
            }
            candidate = following;
        }
        sweep.chooseDirection();
    }

    /** The spill-over rule: only the last request of the sweep may end past the period, and only a D-request. */
    private boolean overrunAllowed(long estimateNs, long leftNs) {
        return spillAllowed && sweep.lastMayOverrun(estimateNs, leftNs);
    }

    /** Non-incremental orderings take only the D-requests that arrived before the period began. */
    private boolean selectable(DiscreteRequest request) {
        return ordering.isIncremental() || request.arrivalNs() - startNs < 0;
    }
}

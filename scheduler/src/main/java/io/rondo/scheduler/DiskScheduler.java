package io.rondo.scheduler;

import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.policy.Limitation;
import io.rondo.scheduler.policy.QueueOrdering;
import io.rondo.scheduler.policy.SchedulingPolicy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The scheduler of one disk: papers/001 Figure 4 ({@code scheduleMixedWorkload}) turned inside
 * out into a state machine, so that the same code runs under the disk executor's real clock and
 * under the simulator's virtual one.
 *
 * <p>It has no thread, no clock and no I/O. Its driver tells it that a round starts
 * ({@link #startRound}), that a D-request arrived ({@link #offer}) and that the IO it issued
 * finished ({@link #ioCompleted}); and asks it what to do next ({@link #next}): the request to
 * issue, or null to wait until a request arrives, a round starts or {@link #wakeUpNs()} passes.
 * One IO is in flight at a time (single-thread IO per disk, papers/000 Section 2.1).
 *
 * <p>Each round that ends is summed up for the observer ({@link ScheduleObserver#roundEnded}):
 * its slack, its C-requests on time, late and dropped, and the D-requests served beside them, as
 * papers/000 Figure 2 plots per time cycle. The counts are plain fields reset at each round
 * start; only the summary itself is allocated, once a round.
 *
 * <p>The policy may change while the disk runs ({@link #changePolicy}): the new one takes over
 * at the next round start, when the last round's C-requests are gone and its D-requests are back
 * in the fifo queue, so no request is ever scheduled half under one policy and half under another.
 *
 * <p>Where this departs from the paper, it is on purpose:
 * <ul>
 *   <li>A sweep that runs out of requests ahead of the head starts a new sweep at once, with
 *       the direction chosen afresh (Figure 7), instead of waiting for the next arrival while
 *       requests behind the head wait in the fifo queue.</li>
 *   <li>The fill procedure (Figure 5) stops at the first FCFS candidate that does not fit, instead
 *       of trying later, smaller ones: a stream of small requests cannot overtake a large one
 *       for ever.</li>
 *   <li>The C-request guard of Figure 5 (no C-request at the head or tail of the list when the
 *       estimate exceeds the round) is made exact: an insertion that makes the sweep overrun the
 *       (sub)round is kept only if everything but the last request of the sweep still fits and
 *       that last request is a D-request. So no C-request is ever estimated past its round, and
 *       the overrun is never more than one D-request, wherever the newcomer lands in the list.</li>
 *   <li>At each round start, D-requests still in the scan list return to the fifo queue in
 *       arrival order, so the new round's C-requests are placed first and the D-requests are
 *       selected again, FCFS, around them.</li>
 * </ul>
 */
public final class DiskScheduler {

    private enum Phase {
        /** C- and D-requests in one sweep. */
        MIXED,
        /** A disjoint policy serving its C-requests. */
        CONTINUOUS,
        /** A D-first disjoint policy serving D-requests before its C-requests. */
        DISCRETE_BEFORE_CONTINUOUS,
        /** A disjoint policy serving D-requests until the (sub)round ends. */
        DISCRETE
    }

    private final DiskModel disk;
    private final long roundLengthNs;
    private final ScheduleObserver observer;
    private SchedulingPolicy policy;
    private QueueOrdering ordering;
    private Limitation limitation;
    private int subrounds;
    private SchedulingPolicy nextPolicy;

    private final FifoQueue fifo = new FifoQueue();
    private final java.util.ArrayDeque<DiscreteRequest> urgent = new java.util.ArrayDeque<>();
    private final ScanList scanList;
    private final ScanList waitingContinuous;
    private ScanDirection direction = ScanDirection.UNDEFINED;
    private long headPosition;
    private DiskRequest inFlight;

    private boolean roundStarted;
    private long roundStartNs;
    private long roundEndNs;
    private ContinuousRequest[] roundContinuous = new ContinuousRequest[16];
    /** The C-requests the last round start dropped unread, for the driver to fail; reused each round. */
    private final List<ContinuousRequest> dropped = new ArrayList<>();
    private int roundContinuousCount;
    private int subround;
    private long subroundEndNs;

    private Phase phase = Phase.MIXED;
    private long periodStartNs;
    private long periodEndNs;
    private boolean spillAllowed;
    private boolean periodFresh;
    private int discreteThisSubround;

    private long glitches;
    private long discardedContinuous;
    private long busyNs;
    private long continuousBusyNs;

    private int roundOnTime;
    private int roundLate;
    private int roundDropped;
    private int roundDiscreteServed;
    private long roundContinuousBusyNs;
    private long roundDiscreteBusyNs;
    private long roundLastContinuousDoneNs;
    private long roundContinuousBytes;
    /** A C-request of an ended round, still in flight: already summed up as late with its round. */
    private DiskRequest carriedOver;

    /**
     * @param policy          a point of the policy framework
     * @param disk            the model the service-time estimates come from
     * @param roundLengthNs   the length of a round: the display time of one fragment
     * @param initialHead     where the head is when the scheduler starts
     * @param observer        told of every completion, glitch and round's end
     */
    public DiskScheduler(SchedulingPolicy policy, DiskModel disk, long roundLengthNs, long initialHead,
                         ScheduleObserver observer) {
        if (roundLengthNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundLengthNs + " ns");
        }
        this.disk = disk;
        this.roundLengthNs = roundLengthNs;
        this.observer = observer;
        checkPolicy(policy);
        apply(policy);
        this.scanList = new ScanList(disk, 64);
        this.waitingContinuous = new ScanList(disk, 16);
        this.headPosition = checkPosition(initialHead, "the initial head position");
    }

    /** The policy in force: a change asked for takes over only at the next round start. */
    public SchedulingPolicy policy() {
        return policy;
    }

    /** The length of a round, fixed for the scheduler's life. */
    public long roundLengthNs() {
        return roundLengthNs;
    }

    /**
     * Schedules with {@code next} from the next round start on; until then the current policy
     * stays in force. A later call before that round start replaces this one.
     *
     * @throws IllegalArgumentException if this scheduler cannot run {@code next} (see {@link #checkPolicy})
     */
    public void changePolicy(SchedulingPolicy next) {
        checkPolicy(next);
        nextPolicy = next;
    }

    /**
     * Refuses a policy this scheduler could not run: one whose subrounds are too short to schedule
     * anything. Reads only what never changes, so any thread may ask before handing a change over.
     *
     * @throws IllegalArgumentException with the reason
     */
    public void checkPolicy(SchedulingPolicy candidate) {
        if (candidate == null) {
            throw new IllegalArgumentException("a scheduling policy is needed");
        }
        if (roundLengthNs / candidate.subrounds() < 1_000) {
            throw new IllegalArgumentException(candidate.subrounds() + " subrounds of a " + roundLengthNs
                + " ns round are too short to schedule anything");
        }
    }

    /**
     * A new round starts: C-requests of the last round still unread (queued, or due in a subround
     * that never began) are glitches and are dropped, the last round is summed up for the observer,
     * a policy change asked for takes over, and these C-requests, due by the end of this round,
     * take their place.
     *
     * <p>The dropped C-requests are returned: their reads will never be issued, so the driver must
     * tell whoever waits for them (a stream waiting for a fragment would otherwise wait for ever).
     *
     * @return the last round's C-requests dropped unread, in no particular order; the list is the
     *         scheduler's own and is valid until the next call
     */
    public List<ContinuousRequest> startRound(long startNs, List<? extends ContinuousRequest> continuous) {
        if (roundStarted && startNs - roundStartNs < 0) {
            throw new IllegalArgumentException("round start " + startNs + " ns precedes the last one, "
                + roundStartNs + " ns");
        }
        for (ContinuousRequest request : continuous) {
            checkPosition(request.position(), request.toString());
        }
        dropped.clear();
        scanList.removeAll(true, request -> discard((ContinuousRequest) request, startNs));
        waitingContinuous.removeAll(true, request -> discard((ContinuousRequest) request, startNs));
        if (roundStarted) {
            for (int i = roundContinuousCount * (subround + 1) / subrounds; i < roundContinuousCount; i++) {
                discard(roundContinuous[i], startNs);
            }
            endRound(startNs);
        }
        returnDiscreteToFifo();
        if (nextPolicy != null) {
            apply(nextPolicy);
            nextPolicy = null;
        }
        roundStarted = true;
        roundStartNs = startNs;
        roundEndNs = startNs + roundLengthNs;
        roundOnTime = 0;
        roundLate = 0;
        roundDropped = 0;
        roundDiscreteServed = 0;
        roundContinuousBusyNs = 0;
        roundDiscreteBusyNs = 0;
        roundLastContinuousDoneNs = startNs;
        if (roundContinuous.length < continuous.size()) {
            roundContinuous = Arrays.copyOf(roundContinuous, Math.max(continuous.size(), roundContinuous.length * 2));
        }
        Arrays.fill(roundContinuous, null);
        roundContinuousCount = 0;
        roundContinuousBytes = 0;
        for (ContinuousRequest request : continuous) {
            roundContinuousBytes += request.sizeBytes();
            request.deadlineNs(roundEndNs);
            request.estimatedCostNs = costOf(request);
            roundContinuous[roundContinuousCount++] = request;
        }
        beginSubround(0);
        return dropped;
    }

    /**
     * A D-request arrived. Requests handed over by several threads may come slightly out of
     * order; each takes its place in the fifo queue by arrival time all the same.
     */
    public void offer(DiscreteRequest request) {
        checkPosition(request.position(), request.toString());
        fifo.putBack(request);
    }

    /**
     * A request to serve as soon as the IO in flight completes, ahead of the sweep: a new stream's
     * first fragment, so its initial latency is one IO plus its own read whatever the load
     * (papers/000 Section 2.2). Admission keeps the margin this takes from a round.
     */
    public void offerUrgent(DiscreteRequest request) {
        checkPosition(request.position(), request.toString());
        urgent.add(request);
    }

    /**
     * What to do now: the request to issue, or null to wait for an arrival, a round start or
     * {@link #wakeUpNs()}. The returned request is in flight until {@link #ioCompleted}.
     */
    public DiskRequest next(long nowNs) {
        if (inFlight != null) {
            throw new IllegalStateException(inFlight + " is in flight; report its completion before asking for more");
        }
        if (!roundStarted) {
            return null;
        }
        while (subround + 1 < subrounds && nowNs - subroundEndNs >= 0) {
            beginSubround(subround + 1);
        }
        DiscreteRequest first = urgent.poll();
        if (first != null) {
            first.estimatedCostNs = costOf(first);
            inFlight = first;
            first.issuedNs = nowNs;
            return first;
        }
        DiskRequest request = switch (phase) {
            case MIXED -> nextFromScanList(nowNs);
            case CONTINUOUS -> nextContinuous(nowNs);
            case DISCRETE_BEFORE_CONTINUOUS -> nextDiscreteBeforeContinuous(nowNs);
            case DISCRETE -> nextDiscrete(nowNs);
        };
        if (request != null) {
            inFlight = request;
            request.issuedNs = nowNs;
        }
        return request;
    }

    /** The IO in flight finished at {@code nowNs}: its actual service time replaces the estimate. */
    public void ioCompleted(long nowNs) {
        DiskRequest request = inFlight;
        if (request == null) {
            throw new IllegalStateException("no IO is in flight");
        }
        inFlight = null;
        headPosition = request.position();
        long serviceNs = nowNs - request.issuedNs;
        busyNs += serviceNs;
        if (request instanceof ContinuousRequest continuous) {
            continuousBusyNs += serviceNs;
            boolean late = nowNs - continuous.deadlineNs() > 0;
            if (request == carriedOver) {
                carriedOver = null;
            } else {
                if (late) {
                    roundLate++;
                } else {
                    roundOnTime++;
                }
                roundContinuousBusyNs += serviceNs;
                roundLastContinuousDoneNs = Math.max(roundLastContinuousDoneNs, nowNs);
            }
            if (late) {
                glitches++;
                observer.glitch(continuous, nowNs, false);
            } else {
                observer.continuousCompleted(continuous, nowNs);
            }
        } else {
            roundDiscreteServed++;
            roundDiscreteBusyNs += serviceNs;
            observer.discreteCompleted((DiscreteRequest) request, nowNs);
        }
    }

    /**
     * When the scheduler wants to be asked again though nothing arrives: the next subround
     * boundary, or {@link Long#MAX_VALUE} if only an arrival or a round start can change anything.
     */
    public long wakeUpNs() {
        return roundStarted && subround + 1 < subrounds ? subroundEndNs : Long.MAX_VALUE;
    }

    /** The request in flight, or null. */
    public DiskRequest inFlight() {
        return inFlight;
    }

    public long headPosition() {
        return headPosition;
    }

    public ScanDirection direction() {
        return direction;
    }

    /** D-requests waiting in the fifo queue. */
    public int queuedDiscrete() {
        return fifo.size();
    }

    /** Requests in the scan list, not counting the one in flight. */
    public int scanListSize() {
        return scanList.size() + waitingContinuous.size();
    }

    /** C-requests that missed their deadline, late or dropped. */
    public long glitches() {
        return glitches;
    }

    /** C-requests dropped unread at the end of their round; part of {@link #glitches()}. */
    public long discardedContinuous() {
        return discardedContinuous;
    }

    /** Total service time of completed IOs. */
    public long busyNs() {
        return busyNs;
    }

    /** Total service time of completed C-requests. */
    public long continuousBusyNs() {
        return continuousBusyNs;
    }

    /** The estimated time to serve the scan list from the head, as {@code estimateSvcTime} of Figure 6. */
    public long estimateServiceTimeNs() {
        return scanList.estimateNs(headPosition, direction);
    }

    /** The fifo queue, for tests in this package to inspect. */
    FifoQueue fifo() {
        return fifo;
    }

    /** The scan list, for tests in this package to inspect. */
    ScanList scanList() {
        return scanList;
    }

    private void apply(SchedulingPolicy next) {
        policy = next;
        ordering = next.ordering();
        limitation = next.limitation();
        subrounds = next.subrounds();
    }

    /**
     * Sums up the round that ends as the next starts at {@code nextStartNs}, its unread
     * C-requests already dropped. A C-request of it still in flight is counted late, with the
     * time it has taken so far.
     */
    private void endRound(long nextStartNs) {
        if (inFlight instanceof ContinuousRequest && inFlight != carriedOver) {
            carriedOver = inFlight;
            roundLate++;
            roundContinuousBusyNs += nextStartNs - inFlight.issuedNs;
            roundLastContinuousDoneNs = Math.max(roundLastContinuousDoneNs, nextStartNs);
        }
        observer.roundEnded(new RoundSummary(roundStartNs, roundLengthNs, roundContinuousCount, roundOnTime,
            roundLate, roundDropped, roundDiscreteServed, roundContinuousBusyNs, roundDiscreteBusyNs,
            roundLastContinuousDoneNs, roundContinuousBytes));
    }

    private void beginSubround(int index) {
        subround = index;
        long startNs = roundStartNs + roundLengthNs * index / subrounds;
        subroundEndNs = index == subrounds - 1 ? roundEndNs : roundStartNs + roundLengthNs * (index + 1) / subrounds;
        discreteThisSubround = 0;
        returnDiscreteToFifo();
        direction = ScanDirection.UNDEFINED;
        int from = roundContinuousCount * index / subrounds;
        int to = roundContinuousCount * (index + 1) / subrounds;
        switch (policy.servicePeriod()) {
            case MIXED -> {
                insertContinuous(scanList, from, to);
                phase = Phase.MIXED;
                beginPeriod(startNs, subroundEndNs, true);
            }
            case DISJOINT_C_FIRST -> {
                insertContinuous(scanList, from, to);
                phase = Phase.CONTINUOUS;
            }
            case DISJOINT_D_FIRST -> {
                insertContinuous(waitingContinuous, from, to);
                phase = Phase.DISCRETE_BEFORE_CONTINUOUS;
                long endNs = limitation == Limitation.STATIC_TIME
                    ? startNs + (long) ((subroundEndNs - startNs) * policy.discretePeriodShare())
                    : subroundEndNs - waitingContinuous.estimateFromAnywhereNs();
                beginPeriod(startNs, endNs, false);
            }
        }
    }

    private void beginPeriod(long startNs, long endNs, boolean spill) {
        periodStartNs = startNs;
        periodEndNs = endNs;
        spillAllowed = spill;
        periodFresh = true;
    }

    private void insertContinuous(ScanList list, int from, int to) {
        for (int i = from; i < to; i++) {
            list.insert(roundContinuous[i]);
        }
    }

    private DiskRequest nextContinuous(long nowNs) {
        DiskRequest request = popScanList();
        if (request != null) {
            return request;
        }
        phase = Phase.DISCRETE;
        direction = ScanDirection.UNDEFINED;
        long endNs = limitation == Limitation.STATIC_TIME
            ? Math.min(subroundEndNs, nowNs + (long) (roundLengthNs / subrounds * policy.discretePeriodShare()))
            : subroundEndNs;
        beginPeriod(nowNs, endNs, true);
        return nextDiscrete(nowNs);
    }

    private DiskRequest nextDiscreteBeforeContinuous(long nowNs) {
        DiskRequest request = nextDiscrete(nowNs);
        if (request != null) {
            return request;
        }
        waitingContinuous.removeAll(true, scanList::insert);
        phase = Phase.CONTINUOUS;
        direction = ScanDirection.UNDEFINED;
        return nextContinuous(nowNs);
    }

    private DiskRequest nextDiscrete(long nowNs) {
        return ordering.isScan() ? nextFromScanList(nowNs) : nextInArrivalOrder(nowNs);
    }

    /** Figure 4's loop body for the SCAN orderings: fill as the ordering allows, then serve. */
    private DiskRequest nextFromScanList(long nowNs) {
        if (mayFill()) {
            fillScanList(nowNs);
        }
        if (scanList.isEmpty() && direction != ScanDirection.UNDEFINED) {
            direction = ScanDirection.UNDEFINED;
            if (mayFill()) {
                fillScanList(nowNs);
            }
        }
        return popScanList();
    }

    private boolean mayFill() {
        return switch (ordering) {
            case INCREMENTAL_SCAN -> true;
            case GATED_INCREMENTAL_SCAN -> periodFresh || scanList.isEmpty();
            default -> periodFresh;
        };
    }

    /** Figure 4's FCFS cases: serve the oldest D-request while the period lasts. */
    private DiskRequest nextInArrivalOrder(long nowNs) {
        DiscreteRequest oldest = fifo.first();
        if (oldest == null || !selectable(oldest)) {
            return null;
        }
        if (limitation == Limitation.STATIC_NUMBER) {
            if (discreteThisSubround >= policy.discreteLimit()) {
                return null;
            }
        } else {
            long leftNs = periodEndNs - nowNs;
            long estimateNs = disk.seekNs(headPosition, oldest.position()) + costOf(oldest);
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
        periodFresh = false;
        boolean counted = limitation == Limitation.STATIC_NUMBER;
        long leftNs = periodEndNs - nowNs;
        long estimateNs = scanList.estimateNs(headPosition, direction);
        DiscreteRequest candidate = fifo.first();
        while (candidate != null && (counted ? discreteThisSubround < policy.discreteLimit() : estimateNs < leftNs)) {
            DiscreteRequest following = fifo.next(candidate);
            if (!selectable(candidate)) {
                break;
            }
            if (isAhead(candidate)) {
                candidate.estimatedCostNs = costOf(candidate);
                int index = scanList.insert(candidate);
                if (!counted) {
                    long withCandidateNs = scanList.estimateNs(headPosition, direction);
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
        if (direction == ScanDirection.UNDEFINED && !scanList.isEmpty()) {
            direction = scanList.directionFrom(headPosition);
        }
    }

    /** The spill-over rule: only the last request of the sweep may end past the period, and only a D-request. */
    private boolean overrunAllowed(long estimateNs, long leftNs) {
        return spillAllowed
            && !scanList.lastInSweep(headPosition, direction).isContinuous()
            && estimateNs - scanList.lastInSweepCostNs(headPosition, direction) <= leftNs;
    }

    /** Non-incremental orderings take only the D-requests that arrived before the period began. */
    private boolean selectable(DiscreteRequest request) {
        return ordering.isIncremental() || request.arrivalNs() - periodStartNs < 0;
    }

    /** Figure 5: while a sweep is under way, a newcomer joins it only if the head has yet to pass it. */
    private boolean isAhead(DiskRequest request) {
        return switch (direction) {
            case UNDEFINED -> true;
            case FORWARD -> request.position() >= headPosition;
            case BACKWARD -> request.position() <= headPosition;
        };
    }

    private DiskRequest popScanList() {
        if (scanList.isEmpty()) {
            return null;
        }
        if (direction == ScanDirection.UNDEFINED) {
            direction = scanList.directionFrom(headPosition);
        }
        return direction == ScanDirection.FORWARD ? scanList.removeFirst() : scanList.removeLast();
    }

    /** Figure 6's per-request term: the rotational delay (the worst case unless known) and the transfer. */
    private long costOf(DiskRequest request) {
        long rotationNs = request.rotationNs() >= 0 ? request.rotationNs() : disk.worstCaseRotationNs();
        return rotationNs + disk.transferNs(request.position(), request.sizeBytes());
    }

    private void returnDiscreteToFifo() {
        scanList.removeAll(false, request -> fifo.putBack((DiscreteRequest) request));
    }

    private void discard(ContinuousRequest request, long nowNs) {
        glitches++;
        discardedContinuous++;
        roundDropped++;
        dropped.add(request);
        roundContinuousBusyNs += request.estimatedCostNs;
        roundLastContinuousDoneNs = Math.max(roundLastContinuousDoneNs, nowNs);
        observer.glitch(request, nowNs, true);
    }

    private long checkPosition(long position, String what) {
        if (position >= disk.capacityBytes()) {
            throw new IllegalArgumentException(what + " lies past the end of the disk (" + disk.capacityBytes()
                + " bytes)");
        }
        return position;
    }
}

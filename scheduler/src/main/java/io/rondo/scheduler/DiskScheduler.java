package io.rondo.scheduler;

import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.policy.Limitation;
import io.rondo.scheduler.policy.SchedulingPolicy;

import java.util.ArrayDeque;
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
 * <p>This class holds the rounds, their subrounds and the service periods the policy divides
 * them into; the {@link Sweep} holds the scan list, the head and its direction; the
 * {@link DiscretePeriod} chooses the D-requests of a period (Figure 5's fill, or FCFS); and the
 * {@link RoundTally} sums up each round that ends for the observer
 * ({@link ScheduleObserver#roundEnded}): its slack, its C-requests on time, late and dropped, and
 * the D-requests served beside them, as papers/000 Figure 2 plots per time cycle.
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
    private int subrounds;
    private SchedulingPolicy nextPolicy;

    private final FifoQueue fifo = new FifoQueue();
    private final ArrayDeque<DiscreteRequest> urgent = new ArrayDeque<>();
    private final Sweep sweep;
    private final ScanList waitingContinuous;
    private final DiscretePeriod period;
    private final RoundTally tally = new RoundTally();
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
        this.sweep = new Sweep(disk, checkPosition(initialHead, "the initial head position"));
        this.waitingContinuous = new ScanList(disk, 16);
        this.period = new DiscretePeriod(fifo, sweep);
        apply(policy);
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
        sweep.list().removeAll(true, request -> discard((ContinuousRequest) request, startNs));
        waitingContinuous.removeAll(true, request -> discard((ContinuousRequest) request, startNs));
        if (roundStarted) {
            for (int i = roundContinuousCount * (subround + 1) / subrounds; i < roundContinuousCount; i++) {
                discard(roundContinuous[i], startNs);
            }
            observer.roundEnded(tally.end(roundStartNs, roundLengthNs, roundContinuousCount, inFlight, startNs));
        }
        returnDiscreteToFifo();
        if (nextPolicy != null) {
            apply(nextPolicy);
            nextPolicy = null;
        }
        roundStarted = true;
        roundStartNs = startNs;
        roundEndNs = startNs + roundLengthNs;
        tally.begin(startNs);
        if (roundContinuous.length < continuous.size()) {
            roundContinuous = Arrays.copyOf(roundContinuous, Math.max(continuous.size(), roundContinuous.length * 2));
        }
        Arrays.fill(roundContinuous, null);
        roundContinuousCount = 0;
        for (ContinuousRequest request : continuous) {
            tally.due(request);
            request.deadlineNs(roundEndNs);
            request.estimatedCostNs = sweep.costOf(request);
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
            first.estimatedCostNs = sweep.costOf(first);
            inFlight = first;
            first.issuedNs = nowNs;
            return first;
        }
        DiskRequest request = switch (phase) {
            case MIXED -> period.nextFromScanList(nowNs);
            case CONTINUOUS -> nextContinuous(nowNs);
            case DISCRETE_BEFORE_CONTINUOUS -> nextDiscreteBeforeContinuous(nowNs);
            case DISCRETE -> period.next(nowNs);
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
        sweep.headAt(request.position());
        long serviceNs = nowNs - request.issuedNs;
        if (request instanceof ContinuousRequest continuous) {
            if (tally.continuousCompleted(continuous, serviceNs, nowNs)) {
                observer.glitch(continuous, nowNs, false);
            } else {
                observer.continuousCompleted(continuous, nowNs);
            }
        } else {
            tally.discreteCompleted(serviceNs);
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

    /** Where the head is: at the last request served, or where it started. */
    public long headPosition() {
        return sweep.headPosition();
    }

    /** The direction of the sweep under way; undefined between sweeps. */
    public ScanDirection direction() {
        return sweep.direction();
    }

    /** D-requests waiting in the fifo queue. */
    public int queuedDiscrete() {
        return fifo.size();
    }

    /** Requests in the scan list, not counting the one in flight. */
    public int scanListSize() {
        return sweep.list().size() + waitingContinuous.size();
    }

    /** C-requests that missed their deadline, late or dropped. */
    public long glitches() {
        return tally.glitches();
    }

    /** C-requests dropped unread at the end of their round; part of {@link #glitches()}. */
    public long discardedContinuous() {
        return tally.discardedContinuous();
    }

    /** Total service time of completed IOs. */
    public long busyNs() {
        return tally.busyNs();
    }

    /** Total service time of completed C-requests. */
    public long continuousBusyNs() {
        return tally.continuousBusyNs();
    }

    /** The estimated time to serve the scan list from the head, as {@code estimateSvcTime} of Figure 6. */
    public long estimateServiceTimeNs() {
        return sweep.estimateNs();
    }

    /** The fifo queue, for tests in this package to inspect. */
    FifoQueue fifo() {
        return fifo;
    }

    /** The scan list, for tests in this package to inspect. */
    ScanList scanList() {
        return sweep.list();
    }

    private void apply(SchedulingPolicy next) {
        policy = next;
        subrounds = next.subrounds();
        period.apply(next);
    }

    private void beginSubround(int index) {
        subround = index;
        long startNs = roundStartNs + roundLengthNs * index / subrounds;
        subroundEndNs = index == subrounds - 1 ? roundEndNs : roundStartNs + roundLengthNs * (index + 1) / subrounds;
        period.beginSubround();
        returnDiscreteToFifo();
        sweep.restart();
        int from = roundContinuousCount * index / subrounds;
        int to = roundContinuousCount * (index + 1) / subrounds;
        switch (policy.servicePeriod()) {
            case MIXED -> {
                insertContinuous(sweep.list(), from, to);
                phase = Phase.MIXED;
                period.begin(startNs, subroundEndNs, true);
            }
            case DISJOINT_C_FIRST -> {
                insertContinuous(sweep.list(), from, to);
                phase = Phase.CONTINUOUS;
            }
            case DISJOINT_D_FIRST -> {
                insertContinuous(waitingContinuous, from, to);
                phase = Phase.DISCRETE_BEFORE_CONTINUOUS;
                long endNs = policy.limitation() == Limitation.STATIC_TIME
                    ? startNs + (long) ((subroundEndNs - startNs) * policy.discretePeriodShare())
                    : subroundEndNs - waitingContinuous.estimateFromAnywhereNs();
                period.begin(startNs, endNs, false);
            }
        }
    }

    private void insertContinuous(ScanList list, int from, int to) {
        for (int i = from; i < to; i++) {
            list.insert(roundContinuous[i]);
        }
    }

    private DiskRequest nextContinuous(long nowNs) {
        DiskRequest request = sweep.pop();
        if (request != null) {
            return request;
        }
        phase = Phase.DISCRETE;
        sweep.restart();
        long endNs = policy.limitation() == Limitation.STATIC_TIME
            ? Math.min(subroundEndNs, nowNs + (long) (roundLengthNs / subrounds * policy.discretePeriodShare()))
            : subroundEndNs;
        period.begin(nowNs, endNs, true);
        return period.next(nowNs);
    }

    private DiskRequest nextDiscreteBeforeContinuous(long nowNs) {
        DiskRequest request = period.next(nowNs);
        if (request != null) {
            return request;
        }
        waitingContinuous.removeAll(true, sweep.list()::insert);
        phase = Phase.CONTINUOUS;
        sweep.restart();
        return nextContinuous(nowNs);
    }

    private void returnDiscreteToFifo() {
        sweep.list().removeAll(false, request -> fifo.putBack((DiscreteRequest) request));
    }

    private void discard(ContinuousRequest request, long nowNs) {
        tally.continuousDropped(request, nowNs);
        dropped.add(request);
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

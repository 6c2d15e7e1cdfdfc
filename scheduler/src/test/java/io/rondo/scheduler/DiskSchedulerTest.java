package io.rondo.scheduler;

import io.rondo.scheduler.policy.SchedulingPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static io.rondo.scheduler.TestDisk.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-disk state machine of papers/001 Figure 4, step by step on {@link TestDisk}, where a
 * 1000-byte request costs 3 ms (2 ms rotation, 1 ms transfer) plus a seek of 1 ms and 1 ms per
 * 1000 bytes. Unless a test says otherwise, every IO takes exactly its worst-case estimate.
 */
class DiskSchedulerTest {

    private final TestDisk disk = new TestDisk();
    private final Recorder recorder = new Recorder();
    private DiskScheduler scheduler;
    private long nowNs;

    private DiskScheduler start(SchedulingPolicy policy, long roundNs, long head) {
        scheduler = new DiskScheduler(policy, disk, roundNs, head, recorder);
        return scheduler;
    }

    private DiskScheduler start(String policy, long roundNs, long head) {
        return start(SchedulingPolicy.parse(policy), roundNs, head);
    }

    private static ContinuousRequest c(long id, long position) {
        return c(id, position, 1_000);
    }

    private static ContinuousRequest c(long id, long position, long sizeBytes) {
        return new ContinuousRequest(id, id, position, sizeBytes);
    }

    /** Offers a D-request arriving now; its id is also its arrival sequence. */
    private DiscreteRequest offer(long id, long position, long sizeBytes) {
        DiscreteRequest request = new DiscreteRequest(id, id, position, sizeBytes, nowNs);
        scheduler.offer(request);
        return request;
    }

    private DiscreteRequest offer(long id, long position) {
        return offer(id, position, 1_000);
    }

    private void startRound(ContinuousRequest... continuous) {
        scheduler.startRound(nowNs, List.of(continuous));
    }

    /** The worst-case service time of {@code request} from where the head is now. */
    private long estimateNs(DiskRequest request) {
        return disk.seekNs(scheduler.headPosition(), request.position()) + disk.worstCostNs(request);
    }

    /** Asks for the next request now and, if there is one, completes it after its estimated service time. */
    private DiskRequest serveNext() {
        DiskRequest request = scheduler.next(nowNs);
        if (request != null) {
            nowNs += estimateNs(request);
            scheduler.ioCompleted(nowNs);
        }
        return request;
    }

    /** Serves requests until the scheduler has nothing to issue; returns their ids in service order. */
    private List<Long> serveUntilIdle() {
        List<Long> ids = new ArrayList<>();
        for (DiskRequest request = serveNext(); request != null; request = serveNext()) {
            ids.add(request.id());
        }
        return ids;
    }

    private List<Long> fifoIds() {
        List<Long> ids = new ArrayList<>();
        for (DiscreteRequest r = scheduler.fifo().first(); r != null; r = scheduler.fifo().next(r)) {
            ids.add(r.id());
        }
        return ids;
    }

    private List<Long> scanListIds() {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < scheduler.scanList().size(); i++) {
            ids.add(scheduler.scanList().get(i).id());
        }
        return ids;
    }

    // ---- scan order and direction (Figures 4 and 7) ----

    /** Figure 7 at the round start: the head at 4000 is nearer the front (1000) than the tail (8000). */
    @Test
    void roundSweepsForwardWhenTheFrontOfTheListIsNearer() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 4_000);
        startRound(c(8, 8_000), c(1, 1_000), c(6, 6_000), c(2, 2_000));

        assertEquals(1L, serveNext().id());
        assertEquals(ScanDirection.FORWARD, scheduler.direction());
        assertEquals(List.of(2L, 6L, 8L), serveUntilIdle());
    }

    /** Figure 7 at the round start: the head at 5000 is nearer the tail (8000) than the front (1000). */
    @Test
    void roundSweepsBackwardWhenTheTailOfTheListIsNearer() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 5_000);
        startRound(c(8, 8_000), c(1, 1_000), c(6, 6_000), c(2, 2_000));

        assertEquals(8L, serveNext().id());
        assertEquals(ScanDirection.BACKWARD, scheduler.direction());
        assertEquals(List.of(6L, 2L, 1L), serveUntilIdle());
        assertEquals(4, recorder.continuousDone.size());
        assertEquals(0, scheduler.glitches());
    }

    @Test
    void nothingIsIssuedBeforeTheFirstRound() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(1, 1_000);

        assertNull(scheduler.next(0));
        assertEquals(Long.MAX_VALUE, scheduler.wakeUpNs());
    }

    // ---- incremental and gated newcomers (Section 2.3, Section 4 (c) and (d)) ----

    /**
     * Section 4 (c): during a forward sweep from 2000, a D-request at 3000 (ahead) joins the sweep
     * before the C-request at 4000; one at 1000 (behind) waits for the next, backward, sweep.
     */
    @Test
    void incrementalScanMergesANewcomerAheadOfTheHeadAndLeavesOneBehindQueued() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        startRound(c(1, 2_000), c(2, 4_000));
        DiskRequest first = scheduler.next(nowNs);
        assertEquals(1L, first.id());
        nowNs = 1 * MS;
        offer(10, 1_000);
        nowNs = 2 * MS;
        offer(11, 3_000);
        nowNs = 6 * MS;
        scheduler.ioCompleted(nowNs);

        assertEquals(11L, serveNext().id(), "the newcomer ahead is served before the C-request beyond it");
        assertEquals(List.of(10L), fifoIds(), "the newcomer behind the head waits");
        assertEquals(2L, serveNext().id());
        assertEquals(10L, scheduler.next(nowNs).id());
        assertEquals(ScanDirection.BACKWARD, scheduler.direction(), "a new sweep, from 4000 back to 1000");
    }

    /**
     * Section 4 (d): gated incremental SCAN takes no newcomer into a sweep under way; the sweep
     * from 2000 to 4000 completes, then 3000 and 1000 form the next sweep, backward from 4000.
     */
    @Test
    void gatedScanTakesNewcomersOnlyWhenTheSweepCompletes() {
        start(SchedulingPolicy.MIXED_GATED_SCAN, 100 * MS, 0);
        startRound(c(1, 2_000), c(2, 4_000));
        DiskRequest first = scheduler.next(nowNs);
        assertEquals(1L, first.id());
        nowNs = 1 * MS;
        offer(10, 1_000);
        nowNs = 2 * MS;
        offer(11, 3_000);
        nowNs = 6 * MS;
        scheduler.ioCompleted(nowNs);

        assertEquals(2L, serveNext().id(), "the sweep under way is finished first");
        assertEquals(List.of(10L, 11L), fifoIds());
        assertEquals(List.of(11L, 10L), serveUntilIdle());
    }

    // ---- the spill-over rule and the C-request guard (Section 4 (b), (c), Figure 5) ----

    /**
     * Round of 8 ms, head at 0: D1 at 1000 is estimated to end at 5 ms, D2 at 2000 at 10 ms. D2
     * may end past the round (it alone overruns), so both are taken; the fill then stops and D3
     * waits. D2 spills into the next round, and D3 is served after it there.
     */
    @Test
    void oneDRequestMayEndPastTheRound() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 8 * MS, 0);
        offer(1, 1_000);
        offer(2, 2_000);
        offer(3, 3_000);
        startRound();

        assertEquals(1L, serveNext().id());
        assertEquals(5 * MS, nowNs);
        DiskRequest second = scheduler.next(nowNs);
        assertEquals(2L, second.id(), "D2 is served though it ends at 10 ms, past the 8 ms round");
        assertEquals(List.of(3L), fifoIds());
        nowNs = 8 * MS;
        startRound();
        nowNs = 10 * MS;
        scheduler.ioCompleted(nowNs);

        assertEquals(List.of(3L), serveUntilIdle());
        assertEquals(List.of("D1 done at 5000000", "D2 done at 10000000", "D3 done at 15000000"), recorder.events);
    }

    /**
     * Round of 8 ms, head at 0: with D1 at 1000 (ends at 5 ms) taken, D2 (6000 bytes at 500) would
     * make both end past the round: D2 at 9.5 ms, D1 at 14 ms. It is refused, and the fill stops
     * there, so D3 (which would fit) does not overtake it.
     */
    @Test
    void aSecondDRequestMayNotEndPastTheRound() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 8 * MS, 0);
        offer(1, 1_000);
        offer(2, 500, 6_000);
        offer(3, 1_500);
        startRound();

        assertEquals(1L, scheduler.next(nowNs).id());
        assertEquals(0, scheduler.scanList().size(), "D2 was taken out again");
        assertEquals(List.of(2L, 3L), fifoIds());
    }

    /**
     * Round of 8 ms, head at 0, C1 at 2000 (ends at 6 ms). D1 at 1000 would come before C1 and
     * push it to 10 ms: refused, D1 stays queued. Once C1 is read, D1 is the one request allowed
     * past the round.
     */
    @Test
    void aDRequestThatWouldPushACRequestPastTheRoundStaysQueued() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 8 * MS, 0);
        offer(11, 1_000);
        startRound(c(1, 2_000));

        assertEquals(1L, serveNext().id());
        assertEquals(List.of(11L), fifoIds());
        assertEquals(List.of(11L), serveUntilIdle());
        assertEquals(List.of("C1 done at 6000000", "D11 done at 11000000"), recorder.events);
        assertEquals(0, scheduler.glitches());
    }

    /** Section 5.5's omniscient variant: a known rotational delay of 0 instead of 2 ms lets D11 fit before C1. */
    @Test
    void aKnownRotationalDelayReplacesTheWorstCase() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 8 * MS, 0);
        DiscreteRequest known = new DiscreteRequest(11, 11, 1_000, 1_000, 0);
        known.knownRotationNs(0);
        scheduler.offer(known);
        startRound(c(1, 2_000));

        assertSame(known, scheduler.next(nowNs), "D11 ends at 3 ms and C1 at 8 ms, within the round");
    }

    /**
     * The guard holds wherever the newcomer lands: round of 12 ms, head at 0, C1 at 1000 and DA at
     * 2000 in the list. DB at 500 goes first and pushes C1 back. With 4000 bytes C1 ends at exactly
     * 12 ms and DB is kept (only DA, a D-request, ends past the round); with 5000 bytes C1 would end
     * at 13 ms, and DB is refused though a D-request ends the sweep.
     */
    @Test
    void aDRequestAheadOfACRequestIsKeptOnlyIfTheCRequestStillEndsInTheRound() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 12 * MS, 0);
        offer(21, 2_000);
        offer(22, 500, 4_000);
        startRound(c(1, 1_000));

        assertEquals(List.of(22L, 1L, 21L), serveUntilIdle());
        assertEquals("C1 done at 12000000", recorder.events.get(1));
        assertEquals(0, scheduler.glitches());

        nowNs = 0;
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 12 * MS, 0);
        offer(21, 2_000);
        offer(22, 500, 5_000);
        startRound(c(1, 1_000));

        assertEquals(1L, scheduler.next(nowNs).id());
        assertEquals(List.of(22L), fifoIds());
    }

    /** A D-request is issued while a moment of the round is left (it may spill), not once the round is over. */
    @Test
    void aDRequestArrivingAsTheRoundEndsWaitsForTheNextRound() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 10 * MS, 0);
        startRound();
        nowNs = 10 * MS - 1;
        offer(1, 1_000);
        assertEquals(1L, scheduler.next(nowNs).id(), "1 ns before the round ends");

        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 10 * MS, 0);
        nowNs = 0;
        startRound();
        nowNs = 10 * MS;
        offer(1, 1_000);
        assertNull(scheduler.next(nowNs), "at the end of the round");
        startRound();
        assertEquals(1L, scheduler.next(nowNs).id());
    }

    // ---- round expiry and glitches ----

    /**
     * Section 4 (a): a round of 10 ms reads C1 and C2 (5 ms each); C3 is still unread when the next
     * round starts, so it is dropped and counted as a glitch.
     */
    @ParameterizedTest
    @ValueSource(strings = {"disjoint-incremental-fcfs", "disjoint-incremental-scan"})
    void cRequestsUnreadWhenTheNextRoundStartsAreDiscardedAsGlitches(String policy) {
        start(policy, 10 * MS, 0);
        startRound(c(1, 1_000), c(2, 2_000), c(3, 3_000));

        assertEquals(List.of(1L, 2L), List.of(serveNext().id(), serveNext().id()));
        assertEquals(10 * MS, nowNs);
        startRound();

        assertEquals(1, scheduler.glitches());
        assertEquals(1, scheduler.discardedContinuous());
        assertEquals(List.of("C1 done at 5000000", "C2 done at 10000000", "C3 discarded at 10000000"),
            recorder.events);
        assertEquals(0, scheduler.scanListSize());
        assertNull(scheduler.next(nowNs));
    }

    /** A C-request read at its deadline is in time; read 1 ns later it is a (late) glitch, not a discarded one. */
    @Test
    void aCRequestCompletedAfterItsDeadlineIsALateGlitch() {
        start(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, 10 * MS, 0);
        startRound(c(1, 1_000));
        scheduler.next(0);
        scheduler.ioCompleted(10 * MS);
        assertEquals(0, scheduler.glitches());

        start(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, 10 * MS, 0);
        startRound(c(2, 1_000));
        scheduler.next(0);
        scheduler.ioCompleted(10 * MS + 1);

        assertEquals(1, scheduler.glitches());
        assertEquals(0, scheduler.discardedContinuous());
        assertEquals(List.of("C1 done at 10000000", "C2 late at 10000001"), recorder.events);
    }

    /**
     * startRound's contract: C-requests of the last round still unread are glitches. With 2
     * subrounds, C2 belongs to the second one; when one IO stalls past the whole second subround,
     * that subround never begins, and C2 must still be reported when the next round starts.
     */
    @ParameterizedTest
    @ValueSource(strings = {"period=mixed,subrounds=2", "period=disjoint-c-first,subrounds=2"})
    void cRequestsOfASubroundThatNeverBeganAreReportedAsGlitches(String policy) {
        start(policy, 100 * MS, 0);
        startRound(c(1, 1_000), c(2, 2_000));
        assertEquals(1L, scheduler.next(0).id());
        nowNs = 100 * MS;
        startRound();
        scheduler.ioCompleted(120 * MS);

        assertEquals(List.of("C1 late at 120000000", "C2 discarded at 100000000"),
            recorder.events.stream().sorted().toList());
        assertEquals(2, scheduler.glitches());
        assertEquals(1, scheduler.discardedContinuous());
    }

    /** Section 4: at a round start, D-requests left in the scan list go back to the fifo queue, oldest first. */
    @Test
    void dRequestsLeftInTheScanListReturnToTheFifoInArrivalOrder() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(1, 3_000);
        offer(2, 1_000);
        offer(3, 2_000);
        startRound();
        assertEquals(2L, serveNext().id());
        assertEquals(List.of(3L, 1L), scanListIds());

        startRound();

        assertEquals(List.of(1L, 3L), fifoIds());
        assertEquals(0, scheduler.scanListSize());
    }

    // ---- service periods and orderings ----

    /** Section 4 (a), (b): a disjoint policy reads every C-request before any D-request; a mixed one interleaves. */
    @Test
    void disjointPoliciesServeEveryCRequestBeforeAnyDRequest() {
        for (SchedulingPolicy policy : List.of(SchedulingPolicy.DISJOINT_INCREMENTAL_FCFS,
                SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN)) {
            nowNs = 0;
            start(policy, 100 * MS, 0);
            offer(5, 2_000);
            startRound(c(1, 1_000), c(2, 3_000));
            assertEquals(List.of(1L, 2L, 5L), serveUntilIdle(), policy.name());
        }
        nowNs = 0;
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(5, 2_000);
        startRound(c(1, 1_000), c(2, 3_000));
        assertEquals(List.of(1L, 5L, 2L), serveUntilIdle());
    }

    /** Section 4 (a): incremental FCFS serves D-requests in arrival order; SCAN serves them in position order. */
    @Test
    void incrementalFcfsServesDRequestsInArrivalOrder() {
        start(SchedulingPolicy.DISJOINT_INCREMENTAL_FCFS, 100 * MS, 0);
        offer(1, 3_000);
        offer(2, 1_000);
        offer(3, 2_000);
        startRound();
        assertEquals(List.of(1L, 2L, 3L), serveUntilIdle());

        nowNs = 0;
        start(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(1, 3_000);
        offer(2, 1_000);
        offer(3, 2_000);
        startRound();
        assertEquals(List.of(2L, 3L, 1L), serveUntilIdle());
    }

    /**
     * Section 2.3: a non-incremental ordering serves only the D-requests known when the period
     * began; D2, arriving during the D-period, waits for the next subround (at 60 ms), while an
     * incremental ordering serves it at once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"scan", "fcfs", "incremental-scan", "incremental-fcfs"})
    void nonIncrementalOrderingsPostponeDRequestsArrivingDuringThePeriod(String order) {
        start("period=disjoint-c-first,subrounds=2,order=" + order, 100 * MS, 0);
        nowNs = 5 * MS;
        offer(1, 1_000);
        nowNs = 10 * MS;
        startRound();
        assertEquals(1L, scheduler.next(nowNs).id());
        nowNs = 12 * MS;
        offer(2, 2_000);
        nowNs = 15 * MS;
        scheduler.ioCompleted(nowNs);

        DiskRequest next = scheduler.next(nowNs);
        if (order.startsWith("incremental")) {
            assertEquals(2L, next.id());
        } else {
            assertNull(next);
            assertEquals(60 * MS, scheduler.wakeUpNs());
            nowNs = 60 * MS;
            assertEquals(2L, scheduler.next(nowNs).id());
        }
    }

    /**
     * Section 2.1: with 2 subrounds the C-requests are split in the order given, the first half
     * in the first subround; wakeUpNs() says when the second begins, and nothing after the last.
     */
    @ParameterizedTest
    @ValueSource(strings = {"period=mixed,subrounds=2", "period=disjoint-c-first,subrounds=2"})
    void subroundsSplitTheCRequestsAndWakeTheDriverAtTheBoundary(String policy) {
        start(policy, 100 * MS, 0);
        startRound(c(1, 1_000), c(2, 2_000), c(4, 4_000), c(3, 3_000));
        assertEquals(50 * MS, scheduler.wakeUpNs());

        assertEquals(List.of(1L, 2L), serveUntilIdle());
        assertEquals(10 * MS, nowNs);
        assertEquals(0, scheduler.scanListSize(), "the second subround's C-requests are not in the list yet");
        assertNull(scheduler.next(50 * MS - 1));
        nowNs = 50 * MS;
        assertEquals(List.of(3L, 4L), serveUntilIdle());
        assertEquals(Long.MAX_VALUE, scheduler.wakeUpNs());
        assertEquals(0, scheduler.glitches());
    }

    @Test
    void anOddNumberOfCRequestsPutsTheExtraOneInTheLastSubround() {
        start("period=disjoint-c-first,subrounds=2", 100 * MS, 0);
        startRound(c(1, 1_000), c(2, 2_000), c(3, 3_000));

        assertEquals(List.of(1L), serveUntilIdle());
        nowNs = 50 * MS;
        assertEquals(List.of(2L, 3L), serveUntilIdle());
    }

    /**
     * Section 2.4 (1)(b), D first: the D-period ends a worst case of the C-requests before the
     * round does, 2000 - (1000.999 full stroke + 3) = 996.001 ms here, so D11 (9 ms) is read
     * before C1. In a round of 1010 ms that leaves 6.001 ms, too short for D11, which then waits
     * until C1 is read.
     */
    @Test
    void dFirstServesWaitingDRequestsBeforeTheCRequestsIfTheyFit() {
        start("period=disjoint-d-first", 2_000 * MS, 0);
        offer(11, 5_000);
        startRound(c(1, 1_000));
        assertEquals(List.of(11L, 1L), serveUntilIdle());

        nowNs = 0;
        start("period=disjoint-d-first", 1_010 * MS, 0);
        offer(11, 5_000);
        startRound(c(1, 1_000));
        assertEquals(List.of(1L, 11L), serveUntilIdle());
        assertEquals(0, scheduler.glitches());
    }

    /** Section 2.2: a static number limit caps the D-requests of a round, whatever time is left. */
    @ParameterizedTest
    @ValueSource(strings = {"period=mixed,limit=static-number:2",
        "period=disjoint-c-first,limit=static-number:2,order=incremental-fcfs"})
    void staticNumberLimitCapsTheDRequestsOfARound(String policy) {
        start(policy, 1_000 * MS, 0);
        for (long id = 1; id <= 5; id++) {
            offer(id, 1_000 * id);
        }
        startRound(c(9, 9_000));

        List<Long> first = serveUntilIdle();
        assertEquals(2, first.stream().filter(id -> id < 9).count(), first.toString());
        assertEquals(List.of(3L, 4L, 5L), fifoIds());
        nowNs = 1_000 * MS;
        startRound();
        assertEquals(List.of(3L, 4L), serveUntilIdle().stream().sorted().toList());
    }

    @Test
    void staticNumberLimitCountsPerSubround() {
        start("period=mixed,subrounds=2,limit=static-number:1", 1_000 * MS, 0);
        for (long id = 1; id <= 3; id++) {
            offer(id, 1_000 * id);
        }
        startRound();

        assertEquals(List.of(1L), serveUntilIdle());
        nowNs = 500 * MS;
        assertEquals(List.of(2L), serveUntilIdle());
        assertEquals(List.of(3L), fifoIds());
    }

    // ---- round summaries (papers/000 Figure 2) ----

    /**
     * A round of 100 ms reads C1 (5 ms) and C2 (5 ms), then D11 (5 ms): its streams took 10 ms, so
     * 90 ms of slack, and the last fragment was read 10 ms into the round.
     */
    @Test
    void aRoundSummaryGivesTheSlackTheStreamsLeft() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(11, 3_000);
        startRound(c(1, 1_000), c(2, 2_000));
        assertEquals(List.of(1L, 2L, 11L), serveUntilIdle());
        assertEquals(List.of(), recorder.rounds, "a round is summed up only when it ends");
        nowNs = 100 * MS;
        startRound();

        assertEquals(List.of(new RoundSummary(0, 100 * MS, 2, 2, 0, 0, 1, 10 * MS, 5 * MS, 10 * MS, 2_000)),
            recorder.rounds);
        RoundSummary round = recorder.rounds.get(0);
        assertEquals(90 * MS, round.slackNs());
        assertEquals(10 * MS, round.durationNs());
        assertEquals(0, round.glitches());
        assertTrue(!round.overrun());
    }

    /**
     * Three 5 ms C-requests in a 10 ms round. Read to the end, C3 is late at 15 ms: 5 ms of
     * negative slack. Dropped unread when the next round starts at 10 ms, it is charged its 3 ms
     * estimate: the streams alone would have needed 13 ms.
     */
    @Test
    void anOverloadedRoundReportsItsOverrunAndNegativeSlack() {
        start(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, 10 * MS, 0);
        startRound(c(1, 1_000), c(2, 2_000), c(3, 3_000));
        assertEquals(List.of(1L, 2L, 3L), serveUntilIdle());
        startRound();

        RoundSummary late = recorder.rounds.get(0);
        assertEquals(new RoundSummary(0, 10 * MS, 3, 2, 1, 0, 0, 15 * MS, 0, 15 * MS, 3_000), late);
        assertEquals(-5 * MS, late.slackNs());
        assertTrue(late.overrun());
        assertEquals(15 * MS, late.durationNs());

        recorder.rounds.clear();
        nowNs = 0;
        start(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, 10 * MS, 0);
        startRound(c(1, 1_000), c(2, 2_000), c(3, 3_000));
        serveNext();
        serveNext();
        startRound();

        RoundSummary dropped = recorder.rounds.get(0);
        assertEquals(new RoundSummary(0, 10 * MS, 3, 2, 0, 1, 0, 13 * MS, 0, 10 * MS, 3_000), dropped);
        assertEquals(-3 * MS, dropped.slackNs());
        assertTrue(dropped.overrun());
        assertEquals(1, dropped.glitches());
        assertEquals(10 * MS, dropped.durationNs(), "a dropped request keeps the round's duration at its length");
    }

    /**
     * C1 is still being read when the next round starts at 100 ms: its round counts it late, with
     * the 100 ms it took so far, and C2 dropped. The next round, which had no C-request, does not
     * count C1 when it completes at 120 ms.
     */
    @Test
    void aCRequestInFlightAtTheRoundsEndCountsLateInItsOwnRound() {
        start("period=mixed,subrounds=2", 100 * MS, 0);
        startRound(c(1, 1_000), c(2, 2_000));
        scheduler.next(0);
        nowNs = 100 * MS;
        startRound();
        scheduler.ioCompleted(120 * MS);
        nowNs = 200 * MS;
        startRound();

        assertEquals(List.of(new RoundSummary(0, 100 * MS, 2, 0, 1, 1, 0, 103 * MS, 0, 100 * MS, 2_000),
            new RoundSummary(100 * MS, 100 * MS, 0, 0, 0, 0, 0, 0, 0, 100 * MS, 0)), recorder.rounds);
        assertEquals(-3 * MS, recorder.rounds.get(0).slackNs());
        assertEquals(0, recorder.rounds.get(1).durationNs());
        assertEquals(scheduler.glitches(), recorder.rounds.stream().mapToLong(RoundSummary::glitches).sum());
    }

    /**
     * A new stream's urgent first fragment (D2) and D1 complete in the first round; D3, issued at
     * 97 ms and read at 102 ms, counts in the round in which it completed.
     */
    @Test
    void dRequestsCountInTheRoundInWhichTheyComplete() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        startRound();
        offer(1, 1_000);
        scheduler.offerUrgent(new DiscreteRequest(2, 2, 2_000, 1_000, nowNs));
        assertEquals(List.of(2L, 1L), serveUntilIdle());
        assertEquals(11 * MS, nowNs);
        nowNs = 97 * MS;
        offer(3, 2_000);
        assertEquals(3L, scheduler.next(nowNs).id());
        nowNs = 100 * MS;
        startRound();
        scheduler.ioCompleted(102 * MS);
        nowNs = 200 * MS;
        startRound();

        assertEquals(List.of(2, 1), recorder.rounds.stream().map(RoundSummary::discreteServed).toList());
        assertEquals(List.of(11 * MS, 5 * MS), recorder.rounds.stream().map(RoundSummary::discreteBusyNs).toList());
        assertEquals(List.of(100 * MS, 100 * MS), recorder.rounds.stream().map(RoundSummary::slackNs).toList());
    }

    // ---- policy changes at a round boundary ----

    /** A change asked for mid-round leaves the round as it was; from the next round start, C-requests come first. */
    @Test
    void aPolicyChangeTakesOverAtTheNextRoundStart() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(5, 2_000);
        startRound(c(1, 1_000), c(2, 3_000));
        assertEquals(1L, serveNext().id());

        scheduler.changePolicy(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN);

        assertEquals(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, scheduler.policy(), "in force until the round ends");
        assertEquals(List.of(5L, 2L), serveUntilIdle(), "the mixed sweep goes on");
        nowNs = 100 * MS;
        offer(6, 2_000);
        scheduler.startRound(nowNs, List.of(c(3, 3_000), c(4, 1_000)));
        assertEquals(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, scheduler.policy());
        assertEquals(List.of(3L, 4L, 6L), serveUntilIdle(), "disjoint: D6, between them, after both");
        assertEquals(0, scheduler.glitches());
    }

    @Test
    void aPolicyTheSchedulerCannotRunIsRefusedAtTheCall() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 3_999, 0);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> scheduler.changePolicy(SchedulingPolicy.parse("period=mixed,subrounds=4")));
        assertTrue(e.getMessage().contains("4 subrounds"), e.getMessage());
        startRound();
        assertEquals(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, scheduler.policy());
    }

    // ---- misuse ----

    @Test
    void askingForMoreWhileAnIoIsInFlightIsRefused() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(1, 1_000);
        startRound();
        DiskRequest inFlight = scheduler.next(0);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> scheduler.next(1));
        assertTrue(e.getMessage().contains("in flight"), e.getMessage());
        assertSame(inFlight, scheduler.inFlight());
        scheduler.ioCompleted(5 * MS);
        assertThrows(IllegalStateException.class, () -> scheduler.ioCompleted(6 * MS), "nothing is in flight");
    }

    @Test
    void aPositionPastTheEndOfTheDiskIsRefusedWithAReadableMessage() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        offer(1, 999_999);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> offer(2, 1_000_000));
        assertEquals("D2[@1000000 1000B t=0] lies past the end of the disk (1000000 bytes)", e.getMessage());
        assertEquals(1, scheduler.queuedDiscrete());
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
            () -> startRound(c(3, 2_000_000)));
        assertTrue(c.getMessage().contains("C3") && c.getMessage().contains("past the end of the disk"),
            c.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> new DiskScheduler(SchedulingPolicy.DEFAULT, disk, 100 * MS, 1_000_000, recorder));
    }

    @Test
    void roundsMayNotGoBackInTimeAndMustBeLongEnoughToSplit() {
        start(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, 100 * MS, 0);
        scheduler.startRound(100 * MS, List.of());

        assertThrows(IllegalArgumentException.class, () -> scheduler.startRound(99 * MS, List.of()));
        assertThrows(IllegalArgumentException.class,
            () -> new DiskScheduler(SchedulingPolicy.DEFAULT, disk, 0, 0, recorder));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> start("period=mixed,subrounds=4", 3_999, 0));
        assertTrue(e.getMessage().contains("4 subrounds"), e.getMessage());
    }

    /** papers/000 Section 2.2: a new stream's first fragment goes right after the IO in flight, before the sweep. */
    @Test
    void anUrgentRequestIsIssuedRightAfterTheIoInFlight() {
        DiskScheduler scheduler = new DiskScheduler(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, new TestDisk(),
            1_000_000_000L, 0, ScheduleObserver.NONE);
        scheduler.startRound(0, List.of(new ContinuousRequest(1, 1, 100_000, 1000),
            new ContinuousRequest(2, 2, 200_000, 1000)));
        DiskRequest inFlight = scheduler.next(0);
        DiscreteRequest first = new DiscreteRequest(9, 9, 900_000, 1000, 0);

        scheduler.offerUrgent(first);
        scheduler.ioCompleted(1_000_000);

        assertEquals(1, inFlight.id());
        assertEquals(first, scheduler.next(1_000_000), "before the C-request the sweep would serve next");
        scheduler.ioCompleted(2_000_000);
        assertEquals(2, scheduler.next(2_000_000).id(), "then the sweep goes on");
    }
}

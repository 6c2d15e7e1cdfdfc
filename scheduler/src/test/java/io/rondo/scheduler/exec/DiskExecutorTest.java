package io.rondo.scheduler.exec;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.RoundSummary;
import io.rondo.scheduler.ScheduleObserver;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The executor of one disk: stepped by hand in virtual time, and once with the round clock on threads of their own. */
class DiskExecutorTest {

    private static final long ROUND_NS = 1_000_000_000L;

    private final DiskProfile paper = DiskProfile.paperDisk();
    private final CachedNanoClock clock = new CachedNanoClock();
    private final List<String> events = new ArrayList<>();
    private final IoCompletion recorder = new IoCompletion() {
        @Override
        public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
            events.add(request.id() + " done at " + completedNs);
            if (buffer != null) {
                buffer.release();
            }
        }

        @Override
        public void failed(DiskRequest request, Exception error, long failedNs) {
            events.add(request.id() + " failed: " + error.getMessage());
        }
    };

    private DiskExecutor stepped(BlockDevice device, BufferPool pool) {
        return stepped(paper, clock, device, pool);
    }

    /** An executor named "test" with no thread, scheduling mixed incremental SCAN on {@code profile}. */
    static DiskExecutor stepped(DiskProfile profile, CachedNanoClock clock, BlockDevice device, BufferPool pool) {
        DiskScheduler scheduler = new DiskScheduler(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, profile, ROUND_NS, 0,
            ScheduleObserver.NONE);
        return new DiskExecutor("test", scheduler, device, pool, clock, 4);
    }

    private ContinuousRequest continuous(long id, int cylinder, long size) {
        ContinuousRequest request = new ContinuousRequest(id, id, paper.positionOfCylinder(cylinder), size);
        request.knownRotationNs(0);
        request.attach(new IoTask(null, 0, (int) size, BufferPool.NO_STREAM, recorder));
        return request;
    }

    /** Each step issues one IO and the manual clock lands exactly on the model's completion time. */
    @Test
    void steppedByHandTheExecutorServesARoundInScanOrderOnTheModelsClock() {
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 1);
        DiskExecutor executor = stepped(disk, new BufferPool(1 << 20));
        ContinuousRequest outer = continuous(1, 3000, 100_000);
        ContinuousRequest inner = continuous(2, 1000, 100_000);
        executor.startRound(0, List.of(outer, inner));

        assertEquals(2, executor.doWork(), "round start, then the first IO");
        long first = paper.seekNs(0, inner.position()) + paper.transferNs(inner.position(), 100_000);
        assertEquals(List.of("2 done at " + first), events, "the nearer request first: a forward sweep");
        assertEquals(1, executor.doWork());
        long second = first + paper.seekNs(inner.position(), outer.position())
            + paper.transferNs(outer.position(), 100_000);
        assertEquals("1 done at " + second, events.get(1));
        assertEquals(0, executor.doWork(), "idle: nothing left this round");
    }

    /**
     * A round that ends before the disk reached all its C-requests: the scheduler drops the rest,
     * and each of their readers is told at once that its read will never come, rather than left
     * waiting for ever.
     */
    @Test
    void aCRequestDroppedUnreadAtItsRoundsEndFailsWithAMissedRound() {
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 1);
        DiskExecutor executor = stepped(disk, new BufferPool(1 << 20));
        List<Exception> failures = new ArrayList<>();
        IoCompletion waiting = new IoCompletion() {
            @Override
            public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                events.add(request.id() + " done");
            }

            @Override
            public void failed(DiskRequest request, Exception error, long failedNs) {
                events.add(request.id() + " failed at " + failedNs);
                failures.add(error);
            }
        };
        ContinuousRequest inner = new ContinuousRequest(1, 1, paper.positionOfCylinder(1000), 100_000);
        ContinuousRequest outer = new ContinuousRequest(2, 2, paper.positionOfCylinder(3000), 100_000);
        for (ContinuousRequest request : List.of(inner, outer)) {
            request.knownRotationNs(0);
            request.attach(new IoTask(null, 0, 100_000, BufferPool.NO_STREAM, waiting));
        }
        executor.startRound(0, List.of(inner, outer));
        executor.doWork();
        assertEquals(List.of("1 done"), events, "the round's first read, the nearer one");

        clock.update(ROUND_NS);
        executor.startRound(ROUND_NS, List.of());
        executor.doWork();

        assertEquals(List.of("1 done", "2 failed at " + ROUND_NS), events,
            "the read the round did not reach fails as the next round starts");
        assertTrue(failures.get(0) instanceof MissedRoundException, failures.get(0).toString());
        assertEquals(0, executor.ioErrors(), "a dropped read is no device error");
    }

    @Test
    void aDRequestHandedOverIsServedAtTheNextStep() {
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 1);
        DiskExecutor executor = stepped(disk, new BufferPool(1 << 20));
        executor.startRound(0, List.of());
        executor.doWork();
        clock.update(5_000_000);
        DiscreteRequest request = new DiscreteRequest(9, 9, paper.positionOfCylinder(10), 50_000, 5_000_000);
        request.knownRotationNs(1_000_000);
        request.attach(new IoTask(null, 0, 50_000, BufferPool.NO_STREAM, recorder));

        assertTrue(executor.submit(request));
        executor.doWork();

        long service = paper.seekNs(0, request.position()) + 1_000_000 + paper.transferNs(request.position(), 50_000);
        assertEquals(List.of("9 done at " + (5_000_000 + service)), events);
    }

    @Test
    void aFullHandOverQueueRefusesTheSubmitter() {
        DiskExecutor executor = stepped(BlockDevice.direct(), new BufferPool(1 << 20));
        int accepted = 0;
        for (int i = 0; i < 10; i++) {
            DiscreteRequest request = new DiscreteRequest(i, i, 0, 4096, 0);
            request.attach(new IoTask(null, 0, 4096, BufferPool.NO_STREAM, recorder));
            if (executor.submit(request)) {
                accepted++;
            }
        }
        assertEquals(4, accepted, "the queue holds its capacity and refuses the rest");
    }

    /** A device error (EIO from the fault-injecting wrapper) fails that read only; the buffer goes back. */
    @Test
    void aDeviceErrorFailsThatReadReturnsItsBufferAndTheExecutorGoesOn(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("data");
        byte[] bytes = new byte[1 << 20];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31);
        }
        Files.write(file, bytes);
        BufferPool pool = new BufferPool(1 << 20);
        FaultInjectingDevice device = new FaultInjectingDevice(BlockDevice.direct(), 1);
        DiskExecutor executor = stepped(device, pool);
        List<byte[]> read = new ArrayList<>();
        IoCompletion keep = new IoCompletion() {
            @Override
            public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                byte[] copy = new byte[data.remaining()];
                data.get(copy);
                read.add(copy);
                buffer.release();
            }

            @Override
            public void failed(DiskRequest request, Exception error, long failedNs) {
                events.add(error.getMessage());
            }
        };
        try (OpenFile open = DiskIo.best().open(file)) {
            executor.startRound(0, List.of());
            for (int i = 0; i < 2; i++) {
                DiscreteRequest request = new DiscreteRequest(i, i, i * 1000L, 5000, 0);
                request.attach(new IoTask(open, 1000 + i, 5000, BufferPool.NO_STREAM, keep));
                executor.submit(request);
            }
            executor.doWork();
            executor.doWork();
        }

        assertEquals(1, events.size(), events.toString());
        assertTrue(events.get(0).contains("Input/output error"), events.toString());
        assertEquals(1, read.size());
        byte[] expected = new byte[5000];
        System.arraycopy(bytes, 1001, expected, 0, 5000);
        assertArrayEquals(expected, read.get(0), "the second read, unaligned, has exactly its bytes");
        assertEquals(1, executor.ioErrors());
        assertEquals(0, pool.outstanding(), "every buffer returned exactly once");
    }

    @Test
    void withoutBufferMemoryADiscreteReadFailsWithAClearReason(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("data");
        Files.write(file, new byte[1 << 16]);
        DiskExecutor executor = stepped(BlockDevice.direct(), new BufferPool(4096));
        try (OpenFile open = DiskIo.best().open(file)) {
            executor.startRound(0, List.of());
            DiscreteRequest request = new DiscreteRequest(1, 1, 0, 10_000, 0);
            request.attach(new IoTask(open, 0, 10_000, BufferPool.NO_STREAM, recorder));
            executor.submit(request);
            executor.doWork();
        }
        assertEquals(1, events.size());
        assertTrue(events.get(0).contains("no buffer memory"), events.toString());
    }

    /**
     * What waits, as another thread sees it: D-requests handed over count at once; after a duty
     * cycle they wait in the fifo queue while the disjoint policy reads its C-requests, then join
     * the scan list when the D-period begins.
     */
    @Test
    void theQueueLengthsAreReadableAsOfTheLastDutyCycle() {
        DiskScheduler scheduler = new DiskScheduler(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, paper, ROUND_NS, 0,
            ScheduleObserver.NONE);
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 1);
        DiskExecutor executor = new DiskExecutor("queues", scheduler, disk, new BufferPool(1 << 20), clock, 16);
        executor.startRound(0, List.of(continuous(1, 1000, 100_000), continuous(2, 2000, 100_000)));
        for (int i = 0; i < 3; i++) {
            DiscreteRequest request = new DiscreteRequest(10 + i, i, paper.positionOfCylinder(3000 + 100 * i), 50_000,
                0);
            request.attach(new IoTask(null, 0, 50_000, BufferPool.NO_STREAM, recorder));
            assertTrue(executor.submit(request));
        }
        assertEquals(3, executor.queuedDiscrete(), "handed over, not yet taken");
        assertEquals(0, executor.scanListSize());

        executor.doWork();
        assertEquals(3, executor.queuedDiscrete(), "in the fifo queue while the C-requests are read");
        assertEquals(1, executor.scanListSize(), "C2 is left; C1 is in flight");
        executor.doWork();
        assertEquals(0, executor.scanListSize());
        executor.doWork();
        assertEquals(0, executor.queuedDiscrete());
        assertEquals(2, executor.scanListSize(), "the D-period's sweep, its first request in flight");
    }

    /** Invoker mode: the round clock and the executor stepped by hand, nine rounds in virtual time. */
    @Test
    void steppedTogetherTheRoundClockAndTheExecutorReadEveryRoundBeforeItsEnd() {
        long roundNs = 100_000_000;
        DiskScheduler scheduler = new DiskScheduler(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, paper, roundNs, 0,
            ScheduleObserver.NONE);
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 5);
        List<Long> lateNs = new ArrayList<>();
        IoCompletion onTime = completing((request, completedNs) ->
            lateNs.add(completedNs - ((ContinuousRequest) request).deadlineNs()));
        DiskExecutor executor = new DiskExecutor("stepped", scheduler, disk, new BufferPool(1 << 20), clock, 16);
        RoundClock rounds = new RoundClock(List.of(executor), everyRound(onTime), clock, 0, roundNs);

        while (rounds.round() < 9) {
            int work = rounds.doWork() + executor.doWork();
            if (work == 0) {
                clock.update(Math.min(rounds.nextStartNs(), executor.wakeUpNs()));
            }
        }

        assertEquals(9, lateNs.size(), "one read in each of the nine rounds started");
        assertTrue(lateNs.stream().allMatch(late -> late <= 0), "every read before its round's end: " + lateNs);
        assertEquals(List.of(), events);
    }

    /** Dedicated mode: both agents on threads of their own; a D-request wakes the idle executor. */
    @Test
    void onTheirOwnThreadsTheAgentsReadEveryRoundAndWakeForADRequest() {
        SystemNanoClock wall = SystemNanoClock.INSTANCE;
        long roundNs = 50_000_000;
        DiskScheduler scheduler = new DiskScheduler(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, paper, roundNs, 0,
            ScheduleObserver.NONE);
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, wall, Waiter.realTime(wall), 5);
        List<String> done = new CopyOnWriteArrayList<>();
        IoCompletion record = completing((request, completedNs) ->
            done.add(Thread.currentThread().getName() + ": " + request.id()));
        DiskExecutor executor = new DiskExecutor("wall", scheduler, disk, new BufferPool(1 << 20), wall, 16);
        RoundClock rounds = new RoundClock(List.of(executor), everyRound(record), wall, wall.nanoTime(), roundNs);
        try (AgentThreads threads = new AgentThreads()) {
            threads.start(executor, executor.idleStrategy());
            threads.start(rounds, rounds.idleStrategy());
            await("three rounds' reads").atMost(Duration.ofSeconds(10)).until(() -> done.size() >= 3);
            DiscreteRequest request = new DiscreteRequest(1_000_000, 7, paper.positionOfCylinder(10), 50_000,
                wall.nanoTime());
            request.attach(new IoTask(null, 0, 50_000, BufferPool.NO_STREAM, record));
            assertTrue(executor.submit(request));
            await("the D-request's read").atMost(Duration.ofSeconds(10))
                .until(() -> done.contains("rondo-disk-wall: 1000000"));
        }
        assertTrue(done.stream().allMatch(line -> line.startsWith("rondo-disk-wall: ")),
            "every read completed on the disk's own thread: " + done);
        assertEquals(0, executor.ioErrors());
        assertEquals(List.of(), events, "no read failed");
    }

    /**
     * Eight streams of 100 kB fragments in rounds of 1 s on the paper's disk, and a D-request every
     * 100 ms, in virtual time. The policy is changed in the middle of round 3 (to mixed gated SCAN)
     * and of round 6 (to disjoint incremental SCAN): each change takes over at the next round
     * start, and no stream misses a deadline across either.
     */
    @Test
    void aPolicyChangeTakesOverAtTheNextRoundStartWithoutAGlitch() {
        long roundNs = 1_000_000_000L;
        List<SchedulingPolicy> roundPolicies = new ArrayList<>();
        List<RoundSummary> summaries = new ArrayList<>();
        DiskScheduler[] holder = new DiskScheduler[1];
        ScheduleObserver observer = new ScheduleObserver() {
            @Override
            public void roundEnded(RoundSummary summary) {
                summaries.add(summary);
                roundPolicies.add(holder[0].policy());
            }
        };
        holder[0] = new DiskScheduler(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, paper, roundNs, 0, observer);
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 3);
        DiskExecutor executor = new DiskExecutor("changing", holder[0], disk, new BufferPool(1 << 20), clock, 64);
        SplittableRandom random = new SplittableRandom(12);
        IoCompletion completion = completing((request, completedNs) -> { });
        RoundClock rounds = new RoundClock(List.of(executor), (d, round, start) -> {
            List<ContinuousRequest> fragments = new ArrayList<>();
            for (int stream = 0; stream < 8; stream++) {
                ContinuousRequest request = new ContinuousRequest(round * 8 + stream, stream,
                    paper.positionOfCylinder(random.nextInt(paper.cylinders())), 100_000);
                request.attach(new IoTask(null, 0, 100_000, BufferPool.NO_STREAM, completion));
                fragments.add(request);
            }
            return fragments;
        }, clock, 0, roundNs);
        long nextArrivalNs = 0;
        long discreteId = 1_000_000;

        while (rounds.round() < 10) {
            long nowNs = clock.nanoTime();
            if (nowNs - nextArrivalNs >= 0) {
                DiscreteRequest request = new DiscreteRequest(discreteId, discreteId++,
                    paper.positionOfCylinder(random.nextInt(paper.cylinders())), 50_000, nowNs);
                request.attach(new IoTask(null, 0, 50_000, BufferPool.NO_STREAM, completion));
                assertTrue(executor.submit(request));
                nextArrivalNs += roundNs / 10;
            }
            if (rounds.round() == 4 && nowNs >= 3 * roundNs + roundNs / 2
                    && executor.schedulingPolicy() == SchedulingPolicy.MIXED_INCREMENTAL_SCAN) {
                executor.changePolicy(SchedulingPolicy.MIXED_GATED_SCAN);
                assertEquals(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, executor.schedulingPolicy(),
                    "in force until the next round starts");
            }
            if (rounds.round() == 7 && nowNs >= 6 * roundNs + roundNs / 2
                    && executor.schedulingPolicy() == SchedulingPolicy.MIXED_GATED_SCAN) {
                executor.changePolicy(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN);
            }
            int work = rounds.doWork() + executor.doWork();
            if (work == 0) {
                clock.update(Math.min(Math.min(rounds.nextStartNs(), executor.wakeUpNs()), nextArrivalNs));
            }
        }

        assertEquals(SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN, executor.schedulingPolicy());
        SchedulingPolicy mixed = SchedulingPolicy.MIXED_INCREMENTAL_SCAN;
        SchedulingPolicy gated = SchedulingPolicy.MIXED_GATED_SCAN;
        SchedulingPolicy disjoint = SchedulingPolicy.DISJOINT_INCREMENTAL_SCAN;
        assertEquals(List.of(mixed, mixed, mixed, mixed, gated, gated, gated, disjoint, disjoint), roundPolicies,
            "the policy of each round that ended");
        assertTrue(summaries.stream().allMatch(r -> r.continuousOnTime() == 8 && !r.overrun() && r.slackNs() > 0),
            "every fragment of every round on time: " + summaries);
        assertTrue(summaries.stream().allMatch(r -> r.discreteServed() > 0), "D-requests served each round");
        assertEquals(List.of(), events, "no read failed");
    }

    /**
     * Streams' reads ahead of the sweep are never refused, however many wait: 5,000 at once (more
     * than any fixed hand-over queue the executor had) are all read, none failed.
     */
    @Test
    void everyStreamReadHandedOverIsReadHoweverManyWait() {
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 1);
        DiskExecutor executor = stepped(disk, new BufferPool(1 << 20));
        executor.startRound(0, List.of());
        int reads = 5_000;
        for (int i = 0; i < reads; i++) {
            DiscreteRequest request = new DiscreteRequest(i, i, paper.positionOfCylinder(i % 3000), 4096, 0);
            request.attach(new IoTask(null, 0, 4096, BufferPool.NO_STREAM, recorder));
            executor.submitUrgent(request);
        }
        while (executor.doWork() > 0) {
            continue;
        }
        assertEquals(reads, events.stream().filter(e -> e.contains(" done at ")).count(), "every read done");
        assertTrue(events.stream().noneMatch(e -> e.contains("failed")), "none failed");
    }

    /** A completion that hands each read and its end time to {@code done}; a failure goes to {@link #events}. */
    private IoCompletion completing(BiConsumer<DiskRequest, Long> done) {
        return new IoCompletion() {
            @Override
            public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                done.accept(request, completedNs);
            }

            @Override
            public void failed(DiskRequest request, Exception error, long failedNs) {
                events.add(request.id() + " failed: " + error.getMessage());
            }
        };
    }

    /** Each round, one 200 kB C-request, further out each round. */
    private RoundClock.RoundPlan everyRound(IoCompletion completion) {
        return (d, round, start) -> {
            ContinuousRequest request = new ContinuousRequest(round, 0, paper.positionOfCylinder((int) round * 100),
                200_000);
            request.attach(new IoTask(null, 0, 200_000, BufferPool.NO_STREAM, completion));
            return List.of(request);
        };
    }
}

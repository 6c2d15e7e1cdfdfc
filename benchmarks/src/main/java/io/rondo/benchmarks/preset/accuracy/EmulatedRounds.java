package io.rondo.benchmarks.preset.accuracy;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.RoundSummary;
import io.rondo.scheduler.ScheduleObserver;
import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.scheduler.exec.EmulatedDisk;
import io.rondo.scheduler.exec.IoCompletion;
import io.rondo.scheduler.exec.IoTask;
import io.rondo.scheduler.exec.PooledBuffer;
import io.rondo.scheduler.exec.RoundClock;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.scheduler.policy.SchedulingPolicy;
import org.agrona.concurrent.CachedNanoClock;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * N dummy streams on one emulated disk, run through Rondo's real round clock, disk executor and
 * scheduler (mixed incremental SCAN, the server's default) in virtual time, as
 * {@code DummyLoad.runStepped} runs them: one {@link CachedNanoClock} that the
 * {@link EmulatedDisk} moves forward by each IO's modelled service time (seek from the head it
 * tracks, a rotational delay drawn uniformly from one revolution, the transfer), so a run of
 * thousands of rounds takes a fraction of a second and one seed gives the same run every time.
 *
 * <p>The streams read no bytes (an {@link IoTask} without a file is an IO that only takes time),
 * so the run measures scheduling alone. Each fragment lies at a uniformly random position, as the
 * fragments of independent objects striped over a disk do.
 *
 * <p>A fragment is counted missed if it is not read by {@code round start + T (1 - reserve)}:
 * admission keeps the rest of each round for D-requests (papers/000 Section 2.1), so a round
 * whose C-requests run into the reserve has taken time it promised to discrete requests. With a
 * reserve of 0 that is the scheduler's own deadline, the end of the round.
 */
public final class EmulatedRounds {

    private static final int QUEUE_CAPACITY = 1024;

    private EmulatedRounds() {
    }

    /**
     * What one run saw.
     *
     * @param streams           N
     * @param rounds            rounds run
     * @param fragments         fragments read (or dropped)
     * @param missed            fragments not read by the end of the round's continuous share
     * @param deadlineGlitches  fragments the scheduler itself counted late or dropped (past the round's end)
     * @param longestRoundNs    the longest time from a round's start until its last fragment was read
     */
    public record Outcome(int streams, int rounds, long fragments, long missed, long deadlineGlitches,
                          long longestRoundNs) {

        /** True if every fragment was read within its round's continuous share. */
        public boolean clean() {
            return missed == 0;
        }
    }

    /**
     * Runs the first {@code streams} streams of {@code set} for all its rounds on an emulated
     * {@code disk}.
     *
     * @param disk      the disk model: the scheduler's estimates and the emulated disk's timing
     * @param set       the streams, fragment by fragment
     * @param streams   N
     * @param roundNs   the round length T
     * @param reserve   the share of each round kept for D-requests
     * @param seed      the seed of fragment positions and rotational delays
     */
    public static Outcome run(DiskModel disk, StreamSet set, int streams, long roundNs, double reserve, long seed) {
        CachedNanoClock clock = new CachedNanoClock();
        Recorder recorder = new Recorder(roundNs - (long) Math.floor(roundNs * (1 - reserve)));
        DiskScheduler scheduler = new DiskScheduler(SchedulingPolicy.DEFAULT, disk, roundNs, 0, recorder);
        EmulatedDisk device = new EmulatedDisk(BlockDevice.direct(), disk, clock, Waiter.advancing(clock), seed);
        DiskExecutor executor = new DiskExecutor("emulated", scheduler, device, new BufferPool(1 << 20), clock,
            QUEUE_CAPACITY);
        SplittableRandom positions = new SplittableRandom(seed * 1_000_003 + 17);
        long[] nextId = {0};
        RoundClock roundClock = new RoundClock(List.of(executor), (ignored, round, startNs) -> {
            List<ContinuousRequest> requests = new ArrayList<>(streams);
            for (int stream = 0; stream < streams && round < set.rounds(); stream++) {
                long size = set.fragmentBytes(stream, (int) round);
                long position = (long) (positions.nextDouble() * disk.capacityBytes());
                ContinuousRequest request = new ContinuousRequest(nextId[0]++, stream, position, size);
                request.attach(new IoTask(null, 0, Math.toIntExact(size), stream, recorder));
                requests.add(request);
            }
            return requests;
        }, clock, 0, roundNs);
        // One round start past the last round, with nothing to read: it drops what the last round left unread.
        while (roundClock.round() <= set.rounds()) {
            roundClock.doWork();
            if (executor.doWork() == 0 && roundClock.round() <= set.rounds()) {
                clock.update(Math.min(roundClock.nextStartNs(), executor.wakeUpNs()));
            }
        }
        executor.doWork();
        return new Outcome(streams, set.rounds(), recorder.fragments, recorder.missed, scheduler.glitches(),
            recorder.longestRoundNs);
    }

    /** Counts what the executor and the scheduler report, on the (single) stepping thread. */
    private static final class Recorder implements ScheduleObserver, IoCompletion {
        private final long reserveNs;
        long fragments;
        long missed;
        long longestRoundNs;

        Recorder(long reserveNs) {
            this.reserveNs = reserveNs;
        }

        @Override
        public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
            ContinuousRequest fragment = (ContinuousRequest) request;
            fragments++;
            if (completedNs - (fragment.deadlineNs() - reserveNs) > 0) {
                missed++;
            }
        }

        @Override
        public void failed(DiskRequest request, Exception error, long failedNs) {
            fragments++;
            missed++;
        }

        @Override
        public void glitch(ContinuousRequest request, long nowNs, boolean discarded) {
            if (discarded) {
                fragments++;
                missed++;
            }
        }

        @Override
        public void roundEnded(RoundSummary summary) {
            longestRoundNs = Math.max(longestRoundNs, summary.durationNs());
        }
    }
}

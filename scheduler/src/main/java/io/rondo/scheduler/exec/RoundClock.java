package io.rondo.scheduler.exec;

import io.rondo.scheduler.ContinuousRequest;
import org.agrona.concurrent.NanoClock;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The round clock (papers/001 Section 6(b), the RT-Controller of papers/004): marks the start of
 * every round for every disk, handing each executor the C-requests its streams need this round.
 * Rounds start at {@code originNs + k * roundLengthNs}, whenever the clock thread wakes, so a late
 * wake-up never shifts the rounds that follow. A test can leave the thread unstarted and call
 * {@link #doWork()} with a manual clock.
 */
public final class RoundClock implements AutoCloseable {

    /** Where each round's C-requests come from. */
    @FunctionalInterface
    public interface RoundPlan {
        /** The C-requests disk {@code disk} must read in round {@code round}, starting at {@code startNs}. */
        List<? extends ContinuousRequest> continuousFor(int disk, long round, long startNs);
    }

    private final List<DiskExecutor> executors;
    private final RoundPlan plan;
    private final NanoClock clock;
    private final long roundLengthNs;
    private final long originNs;
    private long round;
    private volatile boolean running;
    private Thread thread;

    public RoundClock(List<DiskExecutor> executors, RoundPlan plan, NanoClock clock, long originNs,
                      long roundLengthNs) {
        if (roundLengthNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundLengthNs + " ns");
        }
        this.executors = List.copyOf(executors);
        this.plan = plan;
        this.clock = clock;
        this.originNs = originNs;
        this.roundLengthNs = roundLengthNs;
    }

    /** The next round to start. */
    public long round() {
        return round;
    }

    /** When the next round starts. */
    public long nextStartNs() {
        return originNs + round * roundLengthNs;
    }

    /** Starts every round whose time has come; returns how many. */
    public int doWork() {
        long nowNs = clock.nanoTime();
        int started = 0;
        while (nowNs - nextStartNs() >= 0) {
            long startNs = nextStartNs();
            for (int disk = 0; disk < executors.size(); disk++) {
                executors.get(disk).startRound(startNs, plan.continuousFor(disk, round, startNs));
            }
            round++;
            started++;
        }
        return started;
    }

    /** Starts the clock's thread. */
    public void start() {
        if (thread != null) {
            throw new IllegalStateException("the round clock is already started");
        }
        running = true;
        thread = new Thread(this::run, "rondo-round-clock");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            LockSupport.unpark(thread);
            join(thread);
        }
    }

    private void run() {
        Waiter waiter = Waiter.realTime(clock);
        while (running) {
            doWork();
            long untilNs = nextStartNs();
            long leftNs = untilNs - clock.nanoTime();
            if (leftNs > 1_000_000) {
                LockSupport.parkNanos(this, leftNs - 500_000);
            } else if (leftNs > 0) {
                waiter.waitUntil(untilNs);
            }
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.rondo.scheduler.exec;

import io.rondo.scheduler.ContinuousRequest;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

import java.util.List;

/**
 * The round clock (papers/001 Section 6(b), the RT-Controller of papers/004): marks the start of
 * every round for every disk, handing each executor the C-requests its streams need this round.
 * Rounds start at {@code originNs + k * roundLengthNs}, whenever the clock thread wakes, so a late
 * wake-up never shifts the rounds that follow.
 *
 * <p>An {@link Agent} that takes no commands: its work is a time. Idle, it parks until shortly
 * before the next round and spins the rest ({@link #idleStrategy()}). A test runs no thread and
 * calls {@link #doWork()} with a manual clock.
 */
public final class RoundClock implements Agent {

    /** How close to a round's start the clock's thread spins instead of parking: waking late costs accuracy. */
    private static final long SPIN_NS = 100_000;

    /** The longest park: the next round is never further away than one round length. */
    private static final long MAX_PARK_NS = 100_000_000;

    /** Where each round's C-requests come from. */
    @FunctionalInterface
    public interface RoundPlan {
        /** The C-requests disk {@code disk} must read in round {@code round}, starting at {@code startNs}. */
        List<? extends ContinuousRequest> continuousFor(int disk, long round, long startNs);

        /** Every disk has round {@code round}'s C-requests: the plan may look ahead to the next. */
        default void roundStarted(long round, long startNs) {
        }
    }

    private final List<DiskExecutor> executors;
    private final RoundPlan plan;
    private final NanoClock clock;
    private final long roundLengthNs;
    private final long originNs;
    private long round;

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

    @Override
    public String roleName() {
        return "rondo-round-clock";
    }

    /** How the clock's thread waits: parked until shortly before the next round, then spinning. */
    public IdleStrategy idleStrategy() {
        return new ParkingIdleStrategy(clock, this::nextStartNs, MAX_PARK_NS, SPIN_NS);
    }

    /** Starts every round whose time has come; returns how many. */
    @Override
    public int doWork() {
        long nowNs = clock.nanoTime();
        int started = 0;
        while (nowNs - nextStartNs() >= 0) {
            long startNs = nextStartNs();
            for (int disk = 0; disk < executors.size(); disk++) {
                executors.get(disk).startRound(startNs, plan.continuousFor(disk, round, startNs));
            }
            plan.roundStarted(round, startNs);
            round++;
            started++;
        }
        return started;
    }
}

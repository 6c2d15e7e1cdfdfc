package io.rondo.scheduler.exec;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * How a Rondo agent waits when a duty cycle found nothing to do: it parks until its next deadline,
 * unless another thread that handed it work {@linkplain Wakeup#wake() wakes} it sooner. Within
 * {@code spinNs} of the deadline it spins instead, so an agent whose work is a time (the round
 * clock) starts it on time and not when the kernel's timer slack allows. No park is longer than
 * {@code maxParkNs}, so a wake-up lost to a race costs at most that.
 *
 * <p>Agrona's strategies back off blindly (spin, yield, park a fixed period); Rondo's agents know
 * when they next have work, and most of them have none for most of a round.
 */
public final class ParkingIdleStrategy implements IdleStrategy {

    private final NanoClock clock;
    private final LongSupplier deadlineNs;
    private final long maxParkNs;
    private final long spinNs;

    /**
     * @param clock      the agent's clock
     * @param deadlineNs when the agent next has work though nothing wakes it; {@link Long#MAX_VALUE}: never
     * @param maxParkNs  the longest park
     * @param spinNs     how close to the deadline the agent spins instead of parking (0: never spins)
     */
    public ParkingIdleStrategy(NanoClock clock, LongSupplier deadlineNs, long maxParkNs, long spinNs) {
        if (maxParkNs <= 0 || spinNs < 0) {
            throw new IllegalArgumentException("maxParkNs must be positive and spinNs not negative, were "
                + maxParkNs + " and " + spinNs);
        }
        this.clock = clock;
        this.deadlineNs = deadlineNs;
        this.maxParkNs = maxParkNs;
        this.spinNs = spinNs;
    }

    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            idle();
        }
    }

    @Override
    public void idle() {
        long deadline = deadlineNs.getAsLong();
        long leftNs = deadline == Long.MAX_VALUE ? maxParkNs : deadline - clock.nanoTime();
        if (leftNs > spinNs) {
            LockSupport.parkNanos(this, Math.min(leftNs - spinNs, maxParkNs));
        } else if (leftNs > 0) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(this, 1);
        }
    }

    @Override
    public void reset() {
    }

    @Override
    public String alias() {
        return "parking";
    }
}

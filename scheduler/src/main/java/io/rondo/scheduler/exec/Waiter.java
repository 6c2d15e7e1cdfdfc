package io.rondo.scheduler.exec;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.locks.LockSupport;

/** Waits until a clock reaches a deadline: for real, or, in tests, by moving a manual clock. */
@FunctionalInterface
public interface Waiter {

    /** Returns once the clock has reached {@code deadlineNs}. */
    void waitUntil(long deadlineNs);

    /** Parks until shortly before the deadline, then spins the rest: waking late costs accuracy. */
    static Waiter realTime(NanoClock clock) {
        return deadlineNs -> {
            long leftNs;
            while ((leftNs = deadlineNs - clock.nanoTime()) > 0) {
                if (leftNs > 200_000) {
                    LockSupport.parkNanos(leftNs - 100_000);
                } else {
                    Thread.onSpinWait();
                }
            }
        };
    }

    /** Moves a manual clock forward to the deadline: virtual time, for stepped tests. */
    static Waiter advancing(CachedNanoClock clock) {
        return deadlineNs -> {
            if (deadlineNs - clock.nanoTime() > 0) {
                clock.update(deadlineNs);
            }
        };
    }
}

package io.rondo.server.runtime;

import io.rondo.scheduler.exec.ParkingIdleStrategy;
import io.rondo.scheduler.exec.Wakeup;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;

/**
 * The Generator of papers/001 Section 6(b): the agent that turns client requests into disk
 * requests. It opens files and asks their physical positions (both may block on the file
 * system), so that neither the event loops nor the disk executors ever do. Other threads hand it
 * jobs through a bounded queue ({@link #offer}); a full queue refuses work at once.
 */
final class Generator implements Agent {

    /**
     * The longest the idle generator parks: every job wakes it, so this only bounds a wake-up lost
     * to a race, and how long closing waits for the parked thread.
     */
    private static final long MAX_PARK_NS = 100_000_000;

    /** The most jobs one duty cycle runs, so that closing never waits for a long queue to empty. */
    private static final int JOBS_PER_CYCLE = 64;

    private final ManyToOneConcurrentArrayQueue<Runnable> jobs;
    private final Wakeup wakeup = new Wakeup();

    Generator(int queueCapacity) {
        this.jobs = new ManyToOneConcurrentArrayQueue<>(queueCapacity);
    }

    /** Hands {@code job} to the generator's thread; false if its queue is full. */
    boolean offer(Runnable job) {
        boolean queued = jobs.offer(job);
        if (queued) {
            wakeup.wake();
        }
        return queued;
    }

    @Override
    public String roleName() {
        return "rondo-generator";
    }

    @Override
    public void onStart() {
        wakeup.bind();
    }

    @Override
    public int doWork() {
        return jobs.drain(Runnable::run, JOBS_PER_CYCLE);
    }

    /** How the generator's thread waits: parked until a job is handed over. */
    IdleStrategy idleStrategy(NanoClock clock) {
        return new ParkingIdleStrategy(clock, () -> Long.MAX_VALUE, MAX_PARK_NS, 0);
    }
}

package io.rondo.benchmarks.load.live;

import org.agrona.concurrent.NanoClock;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread that notices every publisher's DURABLE within a millisecond of its arrival, for all
 * of them: a thread a publisher polling as often would take a core's share from the server on a
 * small machine. The timing is as fine as the poll.
 */
public final class DurableWatch implements Runnable {

    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final List<PacedPublisher> publishers = new CopyOnWriteArrayList<>();
    private final NanoClock clock;
    private volatile boolean stopped;

    /** @param clock the clock arrivals are timed on, the publishers' */
    public DurableWatch(NanoClock clock) {
        this.clock = clock;
    }

    /** Watches {@code publisher} too. */
    public void add(PacedPublisher publisher) {
        publishers.add(publisher);
    }

    @Override
    public void run() {
        while (!stopped) {
            long nowNs = clock.nanoTime();
            for (PacedPublisher publisher : publishers) {
                publisher.poll(nowNs);
            }
            LockSupport.parkNanos(POLL_NS);
        }
    }

    /** Stops polling, from any thread. */
    public void stop() {
        stopped = true;
    }
}

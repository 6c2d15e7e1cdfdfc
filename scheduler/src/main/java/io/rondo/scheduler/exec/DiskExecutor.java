package io.rondo.scheduler.exec;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.device.OpenFile;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The executor of one disk (papers/001 Section 6(b), papers/000 Section 2.1): the only thread
 * that touches the disk's scheduler and the disk, issuing one IO at a time with the real clock
 * and reporting each actual service time back.
 *
 * <p>Other threads hand it D-requests and round starts through bounded queues that it drains at
 * the top of each duty cycle ({@link #doWork()}). A test can leave the thread unstarted and call
 * {@link #doWork()} itself, with a manual clock and an {@link EmulatedDisk} whose waits move that
 * clock: the executor then runs in virtual time, step by step.
 */
public final class DiskExecutor implements AutoCloseable {

    /** Longest the idle thread parks before looking again, though nothing woke it. */
    private static final long MAX_PARK_NS = 10_000_000;

    private final String name;
    private final DiskScheduler scheduler;
    private final BlockDevice device;
    private final BufferPool buffers;
    private final NanoClock clock;
    private final ManyToOneConcurrentArrayQueue<DiscreteRequest> arrivals;
    private final OneToOneConcurrentArrayQueue<RoundStart> rounds = new OneToOneConcurrentArrayQueue<>(4);
    private final ManyToOneConcurrentArrayQueue<DiscreteRequest> urgent = new ManyToOneConcurrentArrayQueue<>(1024);
    private volatile Thread thread;
    private volatile boolean running;
    private volatile long ioErrors;

    private record RoundStart(long startNs, List<? extends ContinuousRequest> continuous) {
    }

    /**
     * @param name          the disk's name, for the thread and messages
     * @param scheduler     this disk's scheduler; from now on only this executor touches it
     * @param device        the disk
     * @param buffers       where reads land
     * @param clock         the clock, read once per cycle
     * @param queueCapacity how many D-requests may wait to be handed over before submitters are refused
     */
    public DiskExecutor(String name, DiskScheduler scheduler, BlockDevice device, BufferPool buffers,
                        NanoClock clock, int queueCapacity) {
        this.name = name;
        this.scheduler = scheduler;
        this.device = device;
        this.buffers = buffers;
        this.clock = clock;
        this.arrivals = new ManyToOneConcurrentArrayQueue<>(queueCapacity);
    }

    public String name() {
        return name;
    }

    /** Hands a D-request over; false if the hand-over queue is full (the disk is overloaded). */
    public boolean submit(DiscreteRequest request) {
        if (request.attachment() == null) {
            throw new IllegalArgumentException(request + " has no IoTask attached");
        }
        boolean accepted = arrivals.offer(request);
        if (accepted) {
            wake();
        }
        return accepted;
    }

    /** Hands over a request to read right after the IO in flight, ahead of the sweep; false if too many wait. */
    public boolean submitUrgent(DiscreteRequest request) {
        if (request.attachment() == null) {
            throw new IllegalArgumentException(request + " has no IoTask attached");
        }
        boolean accepted = urgent.offer(request);
        if (accepted) {
            wake();
        }
        return accepted;
    }

    /**
     * A round starts at {@code startNs} with these C-requests (each with an {@link IoTask}).
     *
     * @throws IllegalStateException if the executor has left four round starts unread: it is stuck
     */
    public void startRound(long startNs, List<? extends ContinuousRequest> continuous) {
        for (ContinuousRequest request : continuous) {
            if (request.attachment() == null) {
                throw new IllegalArgumentException(request + " has no IoTask attached");
            }
        }
        if (!rounds.offer(new RoundStart(startNs, continuous))) {
            throw new IllegalStateException("disk " + name + " has not started its last four rounds: its executor "
                + "is stuck");
        }
        wake();
    }

    /**
     * One duty cycle: take what other threads handed over, then issue at most one IO and wait
     * for it. Returns the amount of work done, 0 when idle.
     */
    public int doWork() {
        int work = 0;
        RoundStart round;
        while ((round = rounds.poll()) != null) {
            scheduler.startRound(round.startNs(), round.continuous());
            work++;
        }
        DiscreteRequest arrival;
        while ((arrival = arrivals.poll()) != null) {
            scheduler.offer(arrival);
            work++;
        }
        while ((arrival = urgent.poll()) != null) {
            scheduler.offerUrgent(arrival);
            work++;
        }
        DiskRequest request = scheduler.next(clock.nanoTime());
        if (request == null) {
            return work;
        }
        perform(request);
        return work + 1;
    }

    /** When the scheduler wants to look again though nothing arrives ({@link Long#MAX_VALUE}: never). */
    public long wakeUpNs() {
        return scheduler.wakeUpNs();
    }

    /** Reads that failed (device errors, no buffer memory). */
    public long ioErrors() {
        return ioErrors;
    }

    /** Starts the executor's thread. */
    public void start() {
        if (thread != null) {
            throw new IllegalStateException("disk " + name + "'s executor is already started");
        }
        running = true;
        Thread started = new Thread(this::run, "rondo-disk-" + name);
        started.setDaemon(true);
        thread = started;
        started.start();
    }

    /** Stops the thread after its current IO. */
    @Override
    public void close() {
        running = false;
        Thread started = thread;
        if (started != null) {
            LockSupport.unpark(started);
            join(started);
        }
    }

    private void run() {
        while (running) {
            if (doWork() == 0 && rounds.isEmpty() && arrivals.isEmpty() && urgent.isEmpty()) {
                long leftNs = scheduler.wakeUpNs() - clock.nanoTime();
                LockSupport.parkNanos(this, Math.max(1, Math.min(leftNs, MAX_PARK_NS)));
            }
        }
    }

    private void wake() {
        Thread started = thread;
        if (started != null) {
            LockSupport.unpark(started);
        }
    }

    private void perform(DiskRequest request) {
        IoTask task = (IoTask) request.attachment();
        OpenFile file = task.file();
        PooledBuffer buffer = null;
        ByteBuffer data = null;
        Exception error = null;
        try {
            if (file != null) {
                int span = OpenFile.alignedSpan(task.offset(), task.length());
                buffer = task.streamId() == BufferPool.NO_STREAM ? buffers.acquire(span)
                    : buffers.acquireForStream(task.streamId(), span);
                if (buffer == null) {
                    throw new IOException("no buffer memory left under the " + buffers.ceilingBytes()
                        + "-byte ceiling for a read of " + span + " bytes");
                }
            }
            data = device.read(request, task, buffer == null ? null : buffer.buffer());
        } catch (IOException | RuntimeException e) {
            error = e;
        }
        long completedNs = clock.nanoTime();
        scheduler.ioCompleted(completedNs);
        if (error == null) {
            task.completion().completed(request, data, buffer, completedNs);
        } else {
            ioErrors++;
            if (buffer != null) {
                buffer.release();
            }
            task.completion().failed(request, error, completedNs);
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

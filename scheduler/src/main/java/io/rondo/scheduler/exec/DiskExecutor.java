package io.rondo.scheduler.exec;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The executor of one disk (papers/001 Section 6(b), papers/000 Section 2.1): the only thread
 * that touches the disk's scheduler and the disk, issuing one IO at a time with the real clock
 * and reporting each actual service time back.
 *
 * <p>An {@link Agent}: other threads hand it D-requests and round starts through bounded queues
 * ({@link #submit}, {@link #submitUrgent}, {@link #startRound}: its proxy) that it drains at the
 * top of each duty cycle ({@link #doWork()}); idle, it parks until its scheduler's next wake-up
 * or until work is handed over. A test can run no thread and call {@link #doWork()} itself, with
 * a manual clock and an {@link EmulatedDisk} whose waits move that clock: the executor then runs
 * in virtual time, step by step.
 *
 * <p>The scheduling policy may change while the disk runs ({@link #changePolicy}): any thread
 * hands the new policy over, and the executor gives it to its scheduler right before the next
 * round start it drains, so it takes over at a round boundary, with nothing of the last round
 * left in the scan list.
 *
 * <p>A recording's fragment is a C-request like a read stream's, in the same scan and the same
 * round (papers/000 Section 2.1), whose {@link IoTask} is a write: it takes no buffer, and is
 * counted in {@link #writes()} and {@link #writeBytes()}.
 *
 * <p>Other threads may read what waits ({@link #queuedDiscrete()}, {@link #scanListSize()}): the
 * executor publishes its scheduler's queue lengths once a duty cycle.
 */
public final class DiskExecutor implements Agent {

    private static final Logger LOG = LoggerFactory.getLogger(DiskExecutor.class);

    /** Longest the idle thread parks before looking again, though nothing woke it. */
    private static final long MAX_PARK_NS = 10_000_000;

    /** A failing disk logs its first failed IO, then at most one line a second with the count since. */
    private static final long LOG_INTERVAL_NS = 1_000_000_000;

    private final String name;
    private final DiskScheduler scheduler;
    private final BlockDevice device;
    private final BufferPool buffers;
    private final NanoClock clock;
    private final ManyToOneConcurrentArrayQueue<DiscreteRequest> arrivals;
    private final OneToOneConcurrentArrayQueue<RoundStart> rounds = new OneToOneConcurrentArrayQueue<>(4);
    /**
     * Streams' reads ahead of the sweep. Unbounded, so that no admitted stream's read is ever
     * refused: admission bounds it, each admitted stream holding at most two fragments at once.
     */
    private final ManyToOneConcurrentLinkedQueue<DiscreteRequest> urgent = new ManyToOneConcurrentLinkedQueue<>();
    private final Wakeup wakeup = new Wakeup();
    private final AtomicReference<SchedulingPolicy> policyChange = new AtomicReference<>();
    private volatile SchedulingPolicy policyInForce;
    private volatile int fifoSnapshot;
    private volatile int scanListSnapshot;
    private volatile long ioErrors;
    private volatile long reads;
    private volatile long writes;
    private volatile long writeBytes;
    private long errorsLogged;
    private long lastLogNs;

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
        this.policyInForce = scheduler.policy();
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
            wakeup.wake();
        }
        return accepted;
    }

    /**
     * Hands over a stream's read, to be read right after the IO in flight, ahead of the sweep. Never
     * refused: the caller bounds how many wait (an admitted stream holds at most two fragments).
     */
    public void submitUrgent(DiscreteRequest request) {
        if (request.attachment() == null) {
            throw new IllegalArgumentException(request + " has no IoTask attached");
        }
        urgent.offer(request);
        wakeup.wake();
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
        wakeup.wake();
    }

    /**
     * Schedules with {@code next} from the next round start this executor drains; a later call
     * before then replaces this one. Any thread may call it.
     *
     * @throws IllegalArgumentException if the scheduler cannot run {@code next}, at the call
     */
    public void changePolicy(SchedulingPolicy next) {
        scheduler.checkPolicy(next);
        policyChange.set(next);
    }

    /** The policy the disk is scheduled with now; a change handed over shows once its round has started. */
    public SchedulingPolicy schedulingPolicy() {
        return policyInForce;
    }

    @Override
    public String roleName() {
        return "rondo-disk-" + name;
    }

    @Override
    public void onStart() {
        wakeup.bind();
    }

    /** How the executor's thread waits: until the scheduler's next wake-up, or until work is handed over. */
    public IdleStrategy idleStrategy() {
        return new ParkingIdleStrategy(clock, scheduler::wakeUpNs, MAX_PARK_NS, 0);
    }

    /**
     * One duty cycle: take what other threads handed over, then issue at most one IO and wait
     * for it. Returns the amount of work done, 0 when idle.
     */
    @Override
    public int doWork() {
        int work = 0;
        RoundStart round;
        while ((round = rounds.poll()) != null) {
            SchedulingPolicy next = policyChange.getAndSet(null);
            if (next != null) {
                scheduler.changePolicy(next);
            }
            failDropped(scheduler.startRound(round.startNs(), round.continuous()), round.startNs());
            if (next != null) {
                policyInForce = next;
                LOG.info("disk {}: scheduling with {} from the round that started at {} ns", name, next,
                    round.startNs());
            }
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
        publishQueueLengths();
        if (request == null) {
            return work;
        }
        perform(request);
        return work + 1;
    }

    /**
     * Tells each C-request dropped unserved at a round's end that it failed: its read or write will
     * never be issued, and its stream must not wait for it.
     */
    private void failDropped(List<ContinuousRequest> dropped, long roundStartNs) {
        for (ContinuousRequest request : dropped) {
            IoTask task = (IoTask) request.attachment();
            task.completion().failed(request, new MissedRoundException("disk " + name + " did not "
                + (task.isWrite() ? "write " : "read ") + request + " in its round, which ended at " + roundStartNs
                + " ns"), roundStartNs);
        }
    }

    /** When the scheduler wants to look again though nothing arrives ({@link Long#MAX_VALUE}: never). */
    public long wakeUpNs() {
        return scheduler.wakeUpNs();
    }

    /**
     * D-requests waiting: those handed over and not yet taken (urgent ones included), and those in
     * the scheduler's fifo queue as of the executor's last duty cycle. Any thread may ask.
     */
    public int queuedDiscrete() {
        return arrivals.size() + urgent.size() + fifoSnapshot;
    }

    /** Requests in the scheduler's scan list as of the executor's last duty cycle, the one in flight not counted. */
    public int scanListSize() {
        return scanListSnapshot;
    }

    /**
     * Reads and writes that failed (device errors, a full disk, no buffer memory); not the reads of
     * streams that ended before them.
     */
    public long ioErrors() {
        return ioErrors;
    }

    /** Reads done, each with its bytes. Any thread may ask. */
    public long reads() {
        return reads;
    }

    /** Writes done (forced too, where asked). Any thread may ask. */
    public long writes() {
        return writes;
    }

    /** The bytes of the writes done. Any thread may ask. */
    public long writeBytes() {
        return writeBytes;
    }

    /** Writes the queue lengths other threads read: two field writes a duty cycle, against an IO of milliseconds. */
    private void publishQueueLengths() {
        fifoSnapshot = scheduler.queuedDiscrete();
        scanListSnapshot = scheduler.scanListSize();
    }

    private void perform(DiskRequest request) {
        IoTask task = (IoTask) request.attachment();
        if (task.isWrite()) {
            performWrite(request, task);
            return;
        }
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
                    throw new BufferMemoryException(buffers.ceilingBytes(), span);
                }
            }
            data = device.read(request, task, buffer == null ? null : buffer.buffer());
        } catch (IOException | RuntimeException e) {
            error = e;
        }
        long completedNs = clock.nanoTime();
        scheduler.ioCompleted(completedNs);
        if (error == null) {
            reads++;
            task.completion().completed(request, data, buffer, completedNs);
        } else if (error instanceof StreamEndedException cancelled) {
            task.completion().failed(request, cancelled, completedNs);
        } else {
            ioErrors++;
            logFailure(task, error, completedNs);
            if (buffer != null) {
                buffer.release();
            }
            task.completion().failed(request, error, completedNs);
        }
    }

    /** A write takes no buffer: its bytes are the task's, and stay the caller's. */
    private void performWrite(DiskRequest request, IoTask task) {
        Exception error = null;
        try {
            device.write(request, task);
        } catch (IOException | RuntimeException e) {
            error = e;
        }
        long completedNs = clock.nanoTime();
        scheduler.ioCompleted(completedNs);
        if (error == null) {
            writes++;
            writeBytes += task.length();
            task.completion().completed(request, null, null, completedNs);
        } else {
            ioErrors++;
            logFailure(task, error, completedNs);
            task.completion().failed(request, error, completedNs);
        }
    }

    private void logFailure(IoTask task, Exception error, long nowNs) {
        if (errorsLogged > 0 && nowNs - lastLogNs < LOG_INTERVAL_NS) {
            return;
        }
        long since = ioErrors - errorsLogged;
        errorsLogged = ioErrors;
        lastLogNs = nowNs;
        String where = task.file() == null ? "" : " of " + task.length() + " bytes at " + task.offset() + " in "
            + task.file().path();
        LOG.warn("disk {}: a {}{} failed: {} ({} failed IO(s) since the last report, {} in all)", name,
            task.isWrite() ? "write" : "read", where, error.getMessage(), since, ioErrors);
    }
}

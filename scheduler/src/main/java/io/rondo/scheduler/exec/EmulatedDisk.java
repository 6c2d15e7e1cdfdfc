package io.rondo.scheduler.exec;

import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.disk.DiskModel;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * A disk that reads and writes the real bytes but completes each IO when a {@link DiskModel} says
 * it would: seek from the head position it tracks, a rotational delay drawn uniformly from one revolution
 * (or the request's own, when it carries a known one), and the transfer of the request's size.
 * This is how the scheduler's behaviour on the papers' disks shows on hardware far faster than
 * they were: a real read that takes longer than the model simply completes late, and
 * {@link #overrunIos()} counts how often.
 *
 * <p>Positions are the model's: the request's position, not the file's physical address.
 */
public final class EmulatedDisk implements BlockDevice {

    private final BlockDevice backing;
    private final DiskModel model;
    private final NanoClock clock;
    private final Waiter waiter;
    private final SplittableRandom random;
    private long headPosition;
    private long ios;
    private long overrunIos;
    private long lastServiceNs;
    private long lateNs;

    /**
     * @param backing what reads and writes the real bytes ({@link BlockDevice#direct()})
     * @param model   the disk to emulate
     * @param clock   the clock IOs are timed by
     * @param waiter  how to wait for the modelled completion
     * @param seed    the rotational delays' seed
     */
    public EmulatedDisk(BlockDevice backing, DiskModel model, NanoClock clock, Waiter waiter, long seed) {
        this.backing = backing;
        this.model = model;
        this.clock = clock;
        this.waiter = waiter;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public ByteBuffer read(DiskRequest request, IoTask task, ByteBuffer scratch) throws IOException {
        long startNs = clock.nanoTime();
        long serviceNs = serviceNs(request);
        ByteBuffer data = backing.read(request, task, scratch);
        complete(startNs, serviceNs);
        return data;
    }

    /** A write costs what a read of its size and position would: the model knows no difference. */
    @Override
    public void write(DiskRequest request, IoTask task) throws IOException {
        long startNs = clock.nanoTime();
        long serviceNs = serviceNs(request);
        backing.write(request, task);
        complete(startNs, serviceNs);
    }

    /** Waits until the modelled completion of an IO that started at {@code startNs}, counting an overrun. */
    private void complete(long startNs, long serviceNs) {
        long deadlineNs = startNs + serviceNs;
        ios++;
        if (clock.nanoTime() - deadlineNs > 0) {
            overrunIos++;
        }
        waiter.waitUntil(deadlineNs);
        lateNs += clock.nanoTime() - deadlineNs;
        lastServiceNs = serviceNs;
    }

    /** The modelled service time of the next IO, which moves the head to the request. */
    long serviceNs(DiskRequest request) {
        long rotationNs = request.rotationNs() >= 0 ? request.rotationNs()
            : (long) (random.nextDouble() * model.worstCaseRotationNs());
        long serviceNs = model.seekNs(headPosition, request.position()) + rotationNs
            + model.transferNs(request.position(), request.sizeBytes());
        headPosition = request.position();
        return Math.max(1, serviceNs);
    }

    public DiskModel model() {
        return model;
    }

    public long headPosition() {
        return headPosition;
    }

    /** IOs performed. */
    public long ios() {
        return ios;
    }

    /** IOs whose real read or write took longer than the model allowed, so completed late. */
    public long overrunIos() {
        return overrunIos;
    }

    /** How much later than the model IOs completed, in all: the emulation's timing error. */
    public long lateNs() {
        return lateNs;
    }

    /** The modelled service time of the last IO. */
    public long lastServiceNs() {
        return lastServiceNs;
    }
}

package io.rondo.server.runtime;

import io.rondo.content.ingest.StorageDisk;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.server.config.DiskSettings;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What a {@link DiskRuntime} is built from, named one by one: the disks and where their files
 * are, their models, the round, the buffer ceiling, how IO is done, the clocks and the
 * threading mode. Everything but the disks, their models and the clocks has a default.
 */
public final class DiskOptions {
    final List<StorageDisk> storage;
    final Function<StoredFile, Path> paths;
    SchedulingPolicy policy = SchedulingPolicy.DEFAULT;
    Function<String, DiskProfile> models;
    long roundNs = TimeUnit.SECONDS.toNanos(1);
    long bufferCeilingBytes = 64L << 20;
    boolean emulate;
    DiskIo io;
    Function<BlockDevice, BlockDevice> device = Function.identity();
    DiskSettings settings = DiskSettings.defaults();
    NanoClock nanoClock;
    EpochClock epochClock;
    ThreadingMode threadingMode = ThreadingMode.DEDICATED;
    Waiter waiter;

    DiskOptions(List<StorageDisk> storage, Function<StoredFile, Path> paths) {
        this.storage = List.copyOf(storage);
        this.paths = paths;
    }

    /** The scheduling policy (default: the mixed dynamically incremental SCAN). */
    public DiskOptions policy(SchedulingPolicy policy) {
        this.policy = policy;
        return this;
    }

    /** One model for every disk. */
    public DiskOptions model(DiskProfile model) {
        return models(disk -> model);
    }

    /**
     * Each disk's model, by the disk's name: what its scheduler estimates with, admission
     * control judges by, and an emulated disk keeps time by.
     */
    public DiskOptions models(Function<String, DiskProfile> models) {
        this.models = models;
        return this;
    }

    /** The round's length (default: 1 s). */
    public DiskOptions roundNs(long roundNs) {
        this.roundNs = roundNs;
        return this;
    }

    /** The buffer pool's ceiling (default: 64 MiB). */
    public DiskOptions bufferCeilingBytes(long bytes) {
        this.bufferCeilingBytes = bytes;
        return this;
    }

    /** True: disks complete IOs when the model says (real bytes, emulated timing). Default false. */
    public DiskOptions emulate(boolean emulate) {
        this.emulate = emulate;
        return this;
    }

    /** The disk reader (default: {@link DiskIo#best()}). */
    public DiskOptions diskIo(DiskIo io) {
        this.io = io;
        return this;
    }

    /** Wraps each disk's device: tests inject faults or checks here (default: none). */
    public DiskOptions device(Function<BlockDevice, BlockDevice> device) {
        this.device = device;
        return this;
    }

    /** The largest read and the queues' capacities (default: {@link DiskSettings#defaults()}). */
    public DiskOptions settings(DiskSettings settings) {
        this.settings = settings;
        return this;
    }

    /** The clocks every agent reads: monotonic for rounds and deadlines, epoch for timestamps. */
    public DiskOptions clocks(NanoClock nanoClock, EpochClock epochClock) {
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
        return this;
    }

    /**
     * Threads of their own ({@link ThreadingMode#DEDICATED}, the default) or stepped by the
     * caller with {@link DiskRuntime#invoke()} ({@link ThreadingMode#INVOKER}).
     */
    public DiskOptions threadingMode(ThreadingMode mode) {
        this.threadingMode = mode;
        return this;
    }

    /**
     * How an emulated disk waits for the model's completion time (default: for real on the
     * nano clock; a stepped test passes {@link Waiter#advancing}).
     */
    public DiskOptions waiter(Waiter waiter) {
        this.waiter = waiter;
        return this;
    }

    void conclude() {
        if (models == null) {
            throw new IllegalStateException("no disk model: set model(...) or models(...)");
        }
        if (nanoClock == null || epochClock == null) {
            throw new IllegalStateException("no clocks: set clocks(...)");
        }
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round must be longer than 0 ns, was " + roundNs);
        }
        if (io == null) {
            io = DiskIo.best();
        }
        if (waiter == null) {
            waiter = Waiter.realTime(nanoClock);
        }
    }
}


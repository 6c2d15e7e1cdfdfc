package io.rondo.server.runtime;

import io.rondo.content.ingest.StorageDisk;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.device.WritableFile;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.AgentThreads;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.scheduler.exec.EmulatedDisk;
import io.rondo.scheduler.exec.IoTask;
import io.rondo.scheduler.exec.RoundClock;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.server.observe.DiskWatch;
import io.rondo.server.observe.ResponseTimes;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The disks at run time: per disk its {@link DiskScheduler} and {@link DiskExecutor} agent, one
 * round clock for all, one buffer pool, and the {@link Generator} that turns reads of objects into
 * D-requests ({@link ObjectReads}, over the generator's {@link OpenFiles}). Every byte the server
 * reads from a disk comes through {@link #read}, {@link #prepare} or {@link #readFragmentNow}.
 *
 * <p>Each disk keeps the response times of the D-requests {@link #read} sends it, arrival to
 * completion, in a histogram of fixed size (three significant digits, in its {@link DiskWatch}),
 * so that a server running for months records them in the memory it had on the first day.
 */
public final class DiskRuntime implements AutoCloseable {

    private final Map<String, RuntimeDisk> disks = new LinkedHashMap<>();
    private final RoundClock roundClock;
    private final BufferPool buffers;
    private final Generator generator;
    private final OpenFiles files;
    private final ObjectReads reads;
    private final List<DiskExecutor> executors = new ArrayList<>();
    private final AgentThreads threads;
    private final NanoClock clock;
    private final long roundNs;
    private final long originNs;
    private final int maxReadBytes;
    private final DiskIo io;
    private final Function<StoredFile, Path> paths;
    private final AtomicLong writeIds = new AtomicLong(1L << 62);
    private volatile RoundClock.RoundPlan plan = (disk, round, startNs) -> List.of();

    /** Options for the disks {@code storage}, whose files are where {@code paths} says. */
    public static DiskOptions options(List<StorageDisk> storage, Function<StoredFile, Path> paths) {
        return new DiskOptions(storage, paths);
    }

    /** The disks as {@code options} say; their agents start with {@link #start()}. */
    public DiskRuntime(DiskOptions options) throws IOException {
        options.conclude();
        this.maxReadBytes = options.settings.maxReadBytes();
        this.clock = options.nanoClock;
        this.threads = new AgentThreads(options.threadingMode);
        this.buffers = new BufferPool(options.bufferCeilingBytes);
        this.generator = new Generator(options.settings.generatorQueueCapacity());
        this.roundNs = options.roundNs;
        this.originNs = clock.nanoTime();
        long originEpochNs = options.epochClock.time() * 1_000_000L;
        for (StorageDisk disk : options.storage) {
            DiskProfile model = options.models.apply(disk.name());
            if (model == null) {
                throw new IllegalArgumentException("no disk model for disk " + disk.name());
            }
            DiskWatch watch = new DiskWatch(disk.name(), originNs, roundNs, originEpochNs, 2 * roundNs);
            DiskScheduler scheduler = new DiskScheduler(options.policy, model, roundNs, 0, watch);
            BlockDevice base = options.emulate
                ? new EmulatedDisk(BlockDevice.direct(), model, clock, options.waiter, disk.name().hashCode())
                : BlockDevice.direct();
            DiskExecutor executor = new DiskExecutor(disk.name(), scheduler, options.device.apply(base), buffers, clock,
                options.settings.queueCapacity());
            executors.add(executor);
            disks.put(disk.name(), new RuntimeDisk(disk.name(), executor, model,
                RuntimeDisk.deviceBytes(disk.root(), options.io), watch));
        }
        this.io = options.io;
        this.paths = options.paths;
        this.files = new OpenFiles(options.io);
        this.reads = new ObjectReads(disks, generator, files, options.paths, clock, maxReadBytes);
        this.roundClock = new RoundClock(executors, new RoundClock.RoundPlan() {
            @Override
            public List<? extends ContinuousRequest> continuousFor(int disk, long round, long startNs) {
                return plan.continuousFor(disk, round, startNs);
            }

            @Override
            public void roundStarted(long round, long startNs) {
                plan.roundStarted(round, startNs);
            }
        }, clock, originNs, roundNs);
    }

    /** Where each round's C-requests come from: the streams. Set before {@link #start()}. */
    public void plan(RoundClock.RoundPlan roundPlan) {
        this.plan = roundPlan;
    }

    public long roundNs() {
        return roundNs;
    }

    /** The most bytes one D-request reads ({@code scheduler.maxRead}): ask for more and get this many. */
    public int maxReadBytes() {
        return maxReadBytes;
    }

    /** When round {@code round} starts, on the runtime's clock. */
    public long roundStartNs(long round) {
        return originNs + round * roundNs;
    }

    public NanoClock clock() {
        return clock;
    }

    /** The round clock's index of a disk, as {@link RoundClock.RoundPlan} receives it. */
    public int diskIndex(String name) {
        int index = 0;
        for (String disk : disks.keySet()) {
            if (disk.equals(name)) {
                return index;
            }
            index++;
        }
        throw new IllegalArgumentException("no disk named " + name);
    }

    /** The disks' models by name, for admission control. */
    public Map<String, DiskProfile> models() {
        Map<String, DiskProfile> models = new LinkedHashMap<>();
        disks.forEach((name, disk) -> models.put(name, disk.model()));
        return models;
    }

    /**
     * A continuous object made ready to stream: its files open and every fragment's position
     * known, so that planning a round touches no file system. Runs on the generator thread.
     */
    public CompletableFuture<Prepared> prepare(MediaObject object) {
        return reads.prepare(object);
    }

    /**
     * Reads one whole fragment for a stream right after the IO in flight, ahead of the sweep
     * (papers/000 Section 2.2: a new stream's first fragment is read as soon as the disk can), into
     * the stream's own buffers.
     */
    public CompletableFuture<Chunk> readFragmentNow(Prepared prepared, int fragmentIndex, long streamId) {
        return reads.readFragmentNow(prepared, fragmentIndex, streamId);
    }

    /**
     * The C-request that reads whole fragments of a stream in the round being planned
     * (papers/001 Section 2), for a {@link RoundClock.RoundPlan} to hand the round clock, which
     * submits it: at the fragment's model position, into the stream's own buffers. Only the
     * request is built here; nothing is read until the round clock submits it. Its IO completes
     * {@code result} on the disk's executor thread with the bytes, or fails it with the reason: a
     * {@link io.rondo.scheduler.exec.MissedRoundException} when the disk dropped it unread at its
     * round's end, for the stream to read it again ({@link #readFragmentNow}). Any thread; the
     * round clock's when it plans a round.
     *
     * @param prepared        the stream's object, made ready by {@link #prepare}
     * @param fragmentIndexes the fragments to read in one IO: in order, each next to the one before in its file
     * @param streamId        the stream whose buffers they are read into
     * @param result          completed with the fragments' bytes, one after another, or with the failure
     * @throws IllegalArgumentException if the fragments do not lie next to each other
     */
    public ContinuousRequest fragmentRequest(Prepared prepared, int[] fragmentIndexes, long streamId,
                                             CompletableFuture<Chunk> result) {
        return reads.fragmentRequest(prepared, fragmentIndexes, streamId, result);
    }

    /**
     * Opens {@code file} for a recording's writes, creating it if missing (blocks on the file
     * system: call it off the event loops and the disks' threads).
     */
    public WritableFile openForWriting(StoredFile file) throws IOException {
        return io.openForWriting(paths.apply(file));
    }

    /** {@code file} open for reading, from the generator's open-file table, on the generator's thread. */
    public CompletableFuture<OpenFile> open(StoredFile file) {
        CompletableFuture<OpenFile> result = new CompletableFuture<>();
        if (!generator.offer(() -> {
            try {
                result.complete(files.open(paths.apply(file)).file());
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        })) {
            result.completeExceptionally(new QueueFullException("the server is busy: too many requests waiting"));
        }
        return result;
    }

    /** The model position on disk {@code diskIndex} of byte {@code fileOffset} of {@code file}, for SCAN. */
    public long position(int diskIndex, OpenFile file, long fileOffset) {
        return diskAt(diskIndex).position(file, fileOffset);
    }

    /**
     * The C-request that writes one round of a recording (papers/000 Section 2.1: one IO per stream
     * per round, writes beside reads): {@code data} (direct, aligned, whole blocks) at
     * {@code fileOffset} of {@code file}, forced to the disk, charged to stream {@code streamId}.
     * Nothing is written until the round clock submits it; {@code done} completes on the disk's
     * thread, or fails with why: a {@link io.rondo.scheduler.exec.MissedRoundException} when the
     * disk dropped it unwritten at its round's end.
     */
    public ContinuousRequest writeRequest(int diskIndex, WritableFile file, long fileOffset, ByteBuffer data,
                                          long streamId, CompletableFuture<Void> done) {
        RuntimeDisk disk = diskAt(diskIndex);
        ContinuousRequest request = new ContinuousRequest(writeIds.incrementAndGet(), streamId,
            disk.position(file, fileOffset), data.remaining());
        request.attach(IoTask.write(file, fileOffset, data, true, Completions.written(done)));
        return request;
    }

    private RuntimeDisk diskAt(int diskIndex) {
        return disks.get(diskNames().get(diskIndex));
    }

    /**
     * The response times of every D-request {@link #read} has completed on any disk, from its arrival
     * (the call) to the end of its IO on the disk's executor thread. Failed reads are not counted.
     */
    public ResponseTimes discreteResponseTimes() {
        Histogram all = null;
        for (RuntimeDisk disk : disks.values()) {
            Histogram one = disk.watch().responses();
            if (all == null) {
                all = one;
            } else {
                all.add(one);
            }
        }
        return ResponseTimes.of(all);
    }

    /** The response times of the D-requests of one disk, as {@link #discreteResponseTimes()}. */
    public ResponseTimes discreteResponseTimes(String disk) {
        return ResponseTimes.of(disk(disk).watch().responses());
    }

    /** The disks' names, in the round clock's order. */
    public List<String> diskNames() {
        return List.copyOf(disks.keySet());
    }

    /** What a disk did: its rounds and D-responses. */
    public DiskWatch watch(String disk) {
        return disk(disk).watch();
    }

    /** A disk's executor, for its queues and IO errors. */
    public DiskExecutor executor(String disk) {
        return disk(disk).executor();
    }

    /** A disk's model. */
    public DiskProfile model(String disk) {
        return disk(disk).model();
    }

    private RuntimeDisk disk(String name) {
        RuntimeDisk disk = disks.get(name);
        if (disk == null) {
            throw new IllegalArgumentException("no disk named " + name);
        }
        return disk;
    }

    /**
     * Changes every disk's scheduling policy from its next round on: each executor takes the new
     * policy at its next round start, so no round is scheduled half by one policy and half by the
     * other and every stream's C-request of the round in progress keeps its place.
     */
    public void changePolicy(SchedulingPolicy next) {
        for (DiskExecutor executor : executors) {
            executor.changePolicy(next);
        }
    }

    /** The D-response bound, from the next D-request answered on. */
    public void responseBoundNs(long boundNs) {
        disks.values().forEach(disk -> disk.watch().boundNs(boundNs));
    }

    /** The D-response bound in force. */
    public long responseBoundNs() {
        return disks.values().iterator().next().watch().boundNs();
    }

    /**
     * Starts the agents: the generator, one executor per disk, the round clock, each on its own
     * thread, or, in the invoker mode, ready for {@link #invoke()}.
     */
    public DiskRuntime start() {
        threads.start(generator, generator.idleStrategy(clock));
        for (DiskExecutor executor : executors) {
            threads.start(executor, executor.idleStrategy());
        }
        threads.start(roundClock, roundClock.idleStrategy());
        return this;
    }

    /**
     * One duty cycle of the generator, each disk's executor and the round clock, in that order
     * ({@link ThreadingMode#INVOKER} only): a read asked for is turned into a D-request, done, and a
     * round that is due is started.
     *
     * @return the work done: 0 when none had any
     */
    public int invoke() {
        return threads.invoke();
    }

    /** How the disks' agents are run. */
    public ThreadingMode threadingMode() {
        return threads.mode();
    }

    public BufferPool buffers() {
        return buffers;
    }

    /**
     * Reads up to {@code maxBytes} of an object from {@code offset}, as one D-request to the disk
     * holding those bytes; fewer where a stored piece ends. The future completes on the disk's
     * executor thread with the bytes, or fails with the reason.
     */
    public CompletableFuture<Chunk> read(MediaObject object, long offset, int maxBytes) {
        return reads.read(object, offset, maxBytes);
    }

    /**
     * Lets go of a deleted object's files once nothing reads it (no stream, no download: its last
     * {@link io.rondo.content.ingest.Directory.Lease} closed): they leave the cache at once, so a
     * later object's file at the same path is opened anew, and each is closed once the D-requests
     * in flight on it are done, giving the disk its space back.
     */
    public void forget(MediaObject object) {
        reads.forget(object);
    }

    /** Stops the round clock, the executors and the generator, then closes the files. */
    @Override
    public void close() {
        threads.close();
        files.close();
    }
}

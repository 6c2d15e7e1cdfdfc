package io.rondo.server.runtime;

import io.rondo.content.ingest.StorageDisk;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.AgentThreads;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.scheduler.exec.EmulatedDisk;
import io.rondo.scheduler.exec.IoCompletion;
import io.rondo.scheduler.exec.IoTask;
import io.rondo.scheduler.exec.PooledBuffer;
import io.rondo.scheduler.exec.RoundClock;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.server.config.DiskSettings;
import io.rondo.server.observe.DiskWatch;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.EpochClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The disks at run time: per disk its {@link DiskScheduler} and {@link DiskExecutor} thread, one
 * round clock for all, one buffer pool, and the {@link Generator} that turns reads of objects into
 * D-requests. Every byte the server reads from a disk comes through {@link #read}.
 *
 * <p>Positions: the scheduler orders reads by position in its disk model's address space. The
 * physical address FIEMAP gives is scaled from the device's size onto the model's capacity, so the
 * order is the device's and the seek estimates are the model's.
 *
 * <p>Each disk keeps the response times of the D-requests {@link #read} sends it, arrival to
 * completion, in a histogram of fixed size (three significant digits), so that a server running
 * for months records them in the memory it had on the first day.
 */
public final class DiskRuntime implements AutoCloseable {

    private final Map<String, Disk> disks = new LinkedHashMap<>();
    private final RoundClock roundClock;
    private final BufferPool buffers;
    private final Generator generator;
    private final List<DiskExecutor> executors = new ArrayList<>();
    private final AgentThreads threads;
    private final DiskIo io;
    private final NanoClock clock;
    private final Function<StoredFile, Path> paths;
    private final Map<Path, CachedFile> files = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final long roundNs;
    private final long originNs;
    private final int maxReadBytes;
    private volatile RoundClock.RoundPlan plan = (disk, round, startNs) -> List.of();

    private record Disk(String name, DiskExecutor executor, DiskProfile model, long deviceBytes, DiskWatch watch) {
    }

    /**
     * An open file kept for every read of its path, and the D-requests in flight on it. Once its
     * object is deleted and unread ({@link #forget}) it leaves the cache, so a later file at the
     * same path is opened anew, and it is closed when its last D-request is done.
     */
    private static final class CachedFile {
        private final OpenFile file;
        private int reads;
        private boolean forgotten;

        CachedFile(OpenFile file) {
            this.file = file;
        }

        synchronized void readStarts() {
            reads++;
        }

        synchronized void readEnds() {
            reads--;
            closeIfDone();
        }

        synchronized void forget() {
            forgotten = true;
            closeIfDone();
        }

        private void closeIfDone() {
            if (forgotten && reads == 0) {
                closeQuietly(file);
            }
        }
    }

    /**
     * The response times of D-requests, arrival to completion, in milliseconds, to three significant
     * digits; NaN where none was recorded.
     */
    public record ResponseTimeSummary(long count, double meanMs, double p95Ms, double p99Ms, double maxMs) {
    }

    /**
     * What a {@link DiskRuntime} is built from, named one by one: the disks and where their files
     * are, their models, the round, the buffer ceiling, how IO is done, the clocks and the
     * threading mode. Everything but the disks, their models and the clocks has a default.
     */
    public static final class Options {
        private final List<StorageDisk> storage;
        private final Function<StoredFile, Path> paths;
        private SchedulingPolicy policy = SchedulingPolicy.DEFAULT;
        private Function<String, DiskProfile> models;
        private long roundNs = TimeUnit.SECONDS.toNanos(1);
        private long bufferCeilingBytes = 64L << 20;
        private boolean emulate;
        private DiskIo io;
        private Function<BlockDevice, BlockDevice> device = Function.identity();
        private DiskSettings settings = DiskSettings.defaults();
        private NanoClock nanoClock;
        private EpochClock epochClock;
        private ThreadingMode threadingMode = ThreadingMode.DEDICATED;
        private Waiter waiter;

        private Options(List<StorageDisk> storage, Function<StoredFile, Path> paths) {
            this.storage = List.copyOf(storage);
            this.paths = paths;
        }

        /** The scheduling policy (default: the mixed dynamically incremental SCAN). */
        public Options policy(SchedulingPolicy policy) {
            this.policy = policy;
            return this;
        }

        /** One model for every disk. */
        public Options model(DiskProfile model) {
            return models(disk -> model);
        }

        /**
         * Each disk's model, by the disk's name: what its scheduler estimates with, admission
         * control judges by, and an emulated disk keeps time by.
         */
        public Options models(Function<String, DiskProfile> models) {
            this.models = models;
            return this;
        }

        /** The round's length (default: 1 s). */
        public Options roundNs(long roundNs) {
            this.roundNs = roundNs;
            return this;
        }

        /** The buffer pool's ceiling (default: 64 MiB). */
        public Options bufferCeilingBytes(long bytes) {
            this.bufferCeilingBytes = bytes;
            return this;
        }

        /** True: disks complete IOs when the model says (real bytes, emulated timing). Default false. */
        public Options emulate(boolean emulate) {
            this.emulate = emulate;
            return this;
        }

        /** The disk reader (default: {@link DiskIo#best()}). */
        public Options diskIo(DiskIo io) {
            this.io = io;
            return this;
        }

        /** Wraps each disk's device: tests inject faults or checks here (default: none). */
        public Options device(Function<BlockDevice, BlockDevice> device) {
            this.device = device;
            return this;
        }

        /** The largest read and the queues' capacities (default: {@link DiskSettings#defaults()}). */
        public Options settings(DiskSettings settings) {
            this.settings = settings;
            return this;
        }

        /** The clocks every agent reads: monotonic for rounds and deadlines, epoch for timestamps. */
        public Options clocks(NanoClock nanoClock, EpochClock epochClock) {
            this.nanoClock = nanoClock;
            this.epochClock = epochClock;
            return this;
        }

        /**
         * Threads of their own ({@link ThreadingMode#DEDICATED}, the default) or stepped by the
         * caller with {@link DiskRuntime#invoke()} ({@link ThreadingMode#INVOKER}).
         */
        public Options threadingMode(ThreadingMode mode) {
            this.threadingMode = mode;
            return this;
        }

        /**
         * How an emulated disk waits for the model's completion time (default: for real on the
         * nano clock; a stepped test passes {@link Waiter#advancing}).
         */
        public Options waiter(Waiter waiter) {
            this.waiter = waiter;
            return this;
        }

        private void conclude() {
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

    /** Options for the disks {@code storage}, whose files are where {@code paths} says. */
    public static Options options(List<StorageDisk> storage, Function<StoredFile, Path> paths) {
        return new Options(storage, paths);
    }

    /** The disks as {@code options} say; their agents start with {@link #start()}. */
    public DiskRuntime(Options options) throws IOException {
        options.conclude();
        this.io = options.io;
        this.maxReadBytes = options.settings.maxReadBytes();
        this.paths = options.paths;
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
            disks.put(disk.name(), new Disk(disk.name(), executor, model, deviceBytes(disk.root(), io), watch));
        }
        this.roundClock = new RoundClock(executors, (disk, round, startNs) -> plan.continuousFor(disk, round, startNs),
            clock, originNs, roundNs);
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
        CompletableFuture<Prepared> result = new CompletableFuture<>();
        boolean queued = generator.offer(() -> {
            try {
                List<OpenFile> open = new ArrayList<>();
                for (StoredFile file : object.placement().files()) {
                    open.add(open(paths.apply(file)).file);
                }
                List<Fragment> fragments = object.media().fragments();
                long[] positions = new long[fragments.size()];
                int[] diskIndexes = new int[fragments.size()];
                for (int i = 0; i < positions.length; i++) {
                    Fragment fragment = fragments.get(i);
                    StoredFile file = object.placement().files().get(fragment.file());
                    Disk disk = disks.get(file.disk());
                    if (disk == null) {
                        throw new IOException(object.name() + " is on disk '" + file.disk()
                            + "', which is not configured");
                    }
                    positions[i] = position(disk, open.get(fragment.file()), fragment.fileOffset());
                    diskIndexes[i] = diskIndex(file.disk());
                }
                result.complete(new Prepared(object, open, positions, diskIndexes));
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        if (!queued) {
            result.completeExceptionally(new QueueFullException("the server is busy: too many requests waiting"));
        }
        return result;
    }

    /** An object ready to stream: open files by placement index, each fragment's position and disk index. */
    public record Prepared(MediaObject object, List<OpenFile> files, long[] positions, int[] diskIndexes) {
    }

    /**
     * Reads one whole fragment for a stream right after the IO in flight, ahead of the sweep
     * (papers/000 Section 2.2: a new stream's first fragment is read as soon as the disk can), into
     * the stream's own buffers.
     */
    public CompletableFuture<Chunk> readFragmentNow(Prepared prepared, int fragmentIndex, long streamId) {
        CompletableFuture<Chunk> result = new CompletableFuture<>();
        Fragment fragment = prepared.object().media().fragments().get(fragmentIndex);
        String diskName = prepared.object().placement().files().get(fragment.file()).disk();
        long id = ids.incrementAndGet();
        DiscreteRequest request = new DiscreteRequest(id, id, prepared.positions()[fragmentIndex], fragment.length(),
            clock.nanoTime());
        request.attach(new IoTask(prepared.files().get(fragment.file()), fragment.fileOffset(),
            (int) fragment.length(), streamId, completion(result)));
        disks.get(diskName).executor().submitUrgent(request);
        return result;
    }

    /**
     * The C-request that reads one whole fragment of a stream in the round being planned
     * (papers/001 Section 2), for a {@link RoundClock.RoundPlan} to hand the round clock, which
     * submits it: at the fragment's model position, into the stream's own buffers. Only the
     * request is built here; nothing is read until the round clock submits it. Its IO completes
     * {@code result} on the disk's executor thread with the bytes, or fails it with the reason: a
     * {@link io.rondo.scheduler.exec.MissedRoundException} when the disk dropped it unread at its
     * round's end, for the stream to read it again ({@link #readFragmentNow}). Any thread; the
     * round clock's when it plans a round.
     *
     * @param prepared      the stream's object, made ready by {@link #prepare}
     * @param fragmentIndex the fragment to read
     * @param streamId      the stream whose buffers it is read into
     * @param result        completed with the fragment's bytes, or with the failure
     */
    public ContinuousRequest fragmentRequest(Prepared prepared, int fragmentIndex, long streamId,
                                             CompletableFuture<Chunk> result) {
        Fragment fragment = prepared.object().media().fragments().get(fragmentIndex);
        ContinuousRequest request = new ContinuousRequest(ids.incrementAndGet(), streamId,
            prepared.positions()[fragmentIndex], fragment.length());
        request.attach(new IoTask(prepared.files().get(fragment.file()), fragment.fileOffset(),
            (int) fragment.length(), streamId, completion(result)));
        return request;
    }

    /** What a read's completion does: complete the future with the bytes, or with the failure. */
    private static IoCompletion completion(CompletableFuture<Chunk> result) {
        return completion(result, () -> { });
    }

    /** As {@link #completion(CompletableFuture)}, telling {@code done} first that the read is over. */
    private static IoCompletion completion(CompletableFuture<Chunk> result, Runnable done) {
        return new IoCompletion() {
            @Override
            public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                done.run();
                if (!result.complete(new Chunk(data, buffer))) {
                    buffer.release();
                }
            }

            @Override
            public void failed(DiskRequest request, Exception error, long failedNs) {
                done.run();
                result.completeExceptionally(error);
            }
        };
    }

    /** A completion that first records the response time, arrival to completion, on the disk's executor thread. */
    private static IoCompletion timed(Disk disk, long arrivalNs, IoCompletion completion) {
        return new IoCompletion() {
            @Override
            public void completed(DiskRequest done, ByteBuffer data, PooledBuffer buffer, long completedNs) {
                disk.watch().discreteAnswered(completedNs - arrivalNs);
                completion.completed(done, data, buffer, completedNs);
            }

            @Override
            public void failed(DiskRequest done, Exception error, long failedNs) {
                completion.failed(done, error, failedNs);
            }
        };
    }

    /**
     * The response times of every D-request {@link #read} has completed on any disk, from its arrival
     * (the call) to the end of its IO on the disk's executor thread. Failed reads are not counted.
     */
    public ResponseTimeSummary discreteResponseTimes() {
        Histogram all = null;
        for (Disk disk : disks.values()) {
            Histogram one = disk.watch().responses();
            if (all == null) {
                all = one;
            } else {
                all.add(one);
            }
        }
        return summary(all);
    }

    /** The response times of the D-requests of one disk, as {@link #discreteResponseTimes()}. */
    public ResponseTimeSummary discreteResponseTimes(String disk) {
        return summary(disk(disk).watch().responses());
    }

    private static ResponseTimeSummary summary(Histogram all) {
        if (all == null || all.getTotalCount() == 0) {
            return new ResponseTimeSummary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double nsPerMs = TimeUnit.MILLISECONDS.toNanos(1);
        return new ResponseTimeSummary(all.getTotalCount(), all.getMean() / nsPerMs,
            all.getValueAtPercentile(95) / nsPerMs, all.getValueAtPercentile(99) / nsPerMs,
            all.getMaxValue() / nsPerMs);
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

    private Disk disk(String name) {
        Disk disk = disks.get(name);
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
        CompletableFuture<Chunk> result = new CompletableFuture<>();
        long arrivalNs = clock.nanoTime();
        boolean queued = generator.offer(() -> {
            try {
                submit(object, offset, maxBytes, arrivalNs, result);
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        if (!queued) {
            result.completeExceptionally(new QueueFullException("the server is busy: too many reads waiting"));
        }
        return result;
    }

    private void submit(MediaObject object, long offset, int maxBytes, long arrivalNs, CompletableFuture<Chunk> result)
        throws IOException {
        Piece piece = locate(object, offset);
        int length = (int) Math.min(Math.min(maxBytes, maxReadBytes), piece.available());
        Disk disk = disks.get(piece.file().disk());
        if (disk == null) {
            throw new IOException(object.name() + " is on disk '" + piece.file().disk() + "', which is not configured");
        }
        CachedFile cached = open(paths.apply(piece.file()));
        OpenFile file = cached.file;
        long id = ids.incrementAndGet();
        DiscreteRequest request = new DiscreteRequest(id, id, position(disk, file, piece.fileOffset()), length,
            arrivalNs);
        cached.readStarts();
        request.attach(new IoTask(file, piece.fileOffset(), length, BufferPool.NO_STREAM,
            timed(disk, arrivalNs, completion(result, cached::readEnds))));
        if (!disk.executor().submit(request)) {
            cached.readEnds();
            result.completeExceptionally(
                new QueueFullException("disk " + disk.name() + " is overloaded: its queue is full"));
        }
    }

    /** Where the byte at {@code offset} of an object is stored, and how many bytes follow it there. */
    record Piece(StoredFile file, long fileOffset, long available) {
    }

    static Piece locate(MediaObject object, long offset) {
        if (offset < 0 || offset >= object.size()) {
            throw new IllegalArgumentException("offset " + offset + " is outside " + object.name() + " ("
                + object.size() + " bytes)");
        }
        List<StoredFile> files = object.placement().files();
        if (object.media() == null) {
            return new Piece(files.get(0), offset, object.size() - offset);
        }
        long initEnd = object.media().init().end();
        if (offset < initEnd) {
            return new Piece(files.get(0), offset, initEnd - offset);
        }
        List<Fragment> fragments = object.media().fragments();
        int low = 0;
        int high = fragments.size() - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (fragments.get(mid).offset() <= offset) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        Fragment fragment = fragments.get(low);
        long into = offset - fragment.offset();
        return new Piece(files.get(fragment.file()), fragment.fileOffset() + into, fragment.length() - into);
    }

    private CachedFile open(Path path) throws IOException {
        CachedFile open = files.get(path);
        if (open == null) {
            open = new CachedFile(io.open(path));
            CachedFile raced = files.putIfAbsent(path, open);
            if (raced != null) {
                open.file.close();
                open = raced;
            }
        }
        return open;
    }

    /**
     * Lets go of a deleted object's files once nothing reads it (no stream, no download: its last
     * {@link io.rondo.content.ingest.Directory.Lease} closed): they leave the cache at once, so a
     * later object's file at the same path is opened anew, and each is closed once the D-requests
     * in flight on it are done, giving the disk its space back.
     */
    public void forget(MediaObject object) {
        for (StoredFile stored : object.placement().files()) {
            CachedFile cached = files.remove(paths.apply(stored));
            if (cached != null) {
                cached.forget();
            }
        }
    }

    private static void closeQuietly(OpenFile file) {
        try {
            file.close();
        } catch (IOException e) {
            // Closing a file no one reads any more: nothing waits on it.
            return;
        }
    }

    /** The model position of a file offset: its physical address, scaled from the device onto the model. */
    private static long position(Disk disk, OpenFile file, long fileOffset) {
        long physical;
        try {
            physical = file.physicalPosition(fileOffset);
        } catch (IOException e) {
            physical = fileOffset;
        }
        long capacity = disk.model().capacityBytes();
        long scaled = disk.deviceBytes() > 0 ? (long) ((double) physical / disk.deviceBytes() * capacity) : physical;
        return Math.max(0, Math.min(scaled, capacity - 1));
    }

    /** The size of the block device a root lives on, from sysfs; 0 if unknown. */
    private static long deviceBytes(Path root, DiskIo io) {
        try {
            return io.device(root).sizeBytes();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Stops the round clock, the executors and the generator, then closes the files. */
    @Override
    public void close() {
        threads.close();
        for (CachedFile cached : files.values()) {
            closeQuietly(cached.file);
        }
        files.clear();
    }
}

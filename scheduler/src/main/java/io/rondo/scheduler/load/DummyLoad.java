package io.rondo.scheduler.load;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.ScheduleObserver;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.exec.AgentThreads;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.scheduler.exec.EmulatedDisk;
import io.rondo.scheduler.exec.IoCompletion;
import io.rondo.scheduler.exec.IoTask;
import io.rondo.scheduler.exec.PooledBuffer;
import io.rondo.scheduler.exec.RoundClock;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.scheduler.sim.ResponseTimes;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * Dummy streams, as XTREAM evaluates itself (papers/000 Section 3): N synthetic read streams per
 * disk, CBR or VBR, and a Poisson D-load, run through Rondo's real executors, round clock and
 * buffer pool against real files, on emulated disks (the model's timing) or on the real device.
 *
 * <p>{@link #runRealTime} runs it for real: one executor thread per disk, the round-clock thread
 * and a load thread, on the wall clock. {@link #runStepped} runs the very same executors in
 * virtual time, each disk alone with a manual clock that the emulated disk moves forward, so a
 * long run takes seconds; it is how the tests compare the executor with the simulator.
 */
public final class DummyLoad {

    private static final int QUEUE_CAPACITY = 1 << 16;

    private DummyLoad() {
    }

    /**
     * Runs the load in real time on {@code clock} (the machine's, outside tests); {@code roundsDone}
     * is told as each round starts.
     */
    public static LoadResult runRealTime(LoadSpec spec, DiskIo io, NanoClock clock, IntConsumer roundsDone)
        throws IOException, InterruptedException {
        long wallStartNs = clock.nanoTime();
        long originNs = clock.nanoTime() + 50_000_000;
        BufferPool buffers = new BufferPool(bufferCeiling(spec));
        List<Rig> rigs = new ArrayList<>();
        try {
            for (int disk = 0; disk < spec.disks(); disk++) {
                rigs.add(new Rig(spec, io, disk, buffers, clock, Waiter.realTime(clock), originNs));
            }
            List<DiskExecutor> executors = rigs.stream().map(rig -> rig.executor).toList();
            RoundClock roundClock = new RoundClock(executors, (disk, round, startNs) -> {
                if (disk == 0) {
                    roundsDone.accept((int) round);
                }
                return rigs.get(disk).continuousFor(round);
            }, clock, originNs, spec.roundNs());
            long endNs = originNs + (long) (spec.warmupRounds() + spec.rounds()) * spec.roundNs();
            try (AgentThreads threads = new AgentThreads()) {
                for (DiskExecutor executor : executors) {
                    threads.start(executor, executor.idleStrategy());
                }
                threads.start(roundClock, roundClock.idleStrategy());
                generateDiscreteLoad(spec, rigs, clock, originNs, endNs);
                Waiter.realTime(clock).waitUntil(endNs);
            }
            return result(spec, "real time, " + (spec.emulated() ? "emulated disks" : "real disks"), io, rigs,
                (clock.nanoTime() - wallStartNs) / 1e9);
        } finally {
            closeAll(rigs);
        }
    }

    /**
     * Runs the load in virtual time, disk after disk; only emulated disks have a virtual time to run
     * in. {@code wallClock} only times the run, for the result's account of how long it took.
     */
    public static LoadResult runStepped(LoadSpec spec, DiskIo io, NanoClock wallClock) throws IOException {
        if (!spec.emulated()) {
            throw new IllegalArgumentException("a stepped run needs emulated disks: a real disk keeps real time");
        }
        long wallStartNs = wallClock.nanoTime();
        BufferPool buffers = new BufferPool(bufferCeiling(spec));
        List<Rig> rigs = new ArrayList<>();
        try {
            for (int disk = 0; disk < spec.disks(); disk++) {
                CachedNanoClock clock = new CachedNanoClock();
                Rig rig = new Rig(spec, io, disk, buffers, clock, Waiter.advancing(clock), 0);
                rigs.add(rig);
                RoundClock roundClock = new RoundClock(List.of(rig.executor),
                    (ignored, round, startNs) -> rig.continuousFor(round), clock, 0, spec.roundNs());
                SplittableRandom arrivals = new SplittableRandom(spec.seed() * 31 + disk);
                double meanGapNs = spec.lambda() > 0 ? 1e9 * spec.disks() / spec.lambda() : Double.POSITIVE_INFINITY;
                long endNs = (long) (spec.warmupRounds() + spec.rounds()) * spec.roundNs();
                long nextArrivalNs = nextArrival(arrivals, 0, meanGapNs);
                while (clock.nanoTime() - endNs < 0) {
                    roundClock.doWork();
                    while (nextArrivalNs - clock.nanoTime() <= 0) {
                        rig.submit(nextArrivalNs);
                        nextArrivalNs = nextArrival(arrivals, nextArrivalNs, meanGapNs);
                    }
                    if (rig.executor.doWork() == 0) {
                        long wakeNs = Math.min(Math.min(nextArrivalNs, roundClock.nextStartNs()),
                            rig.executor.wakeUpNs());
                        clock.update(Math.min(wakeNs, endNs));
                    }
                }
            }
            return result(spec, "stepped, emulated disks", io, rigs, (wallClock.nanoTime() - wallStartNs) / 1e9);
        } finally {
            closeAll(rigs);
        }
    }

    private static void generateDiscreteLoad(LoadSpec spec, List<Rig> rigs, NanoClock clock, long originNs,
                                             long endNs) {
        if (spec.lambda() <= 0) {
            return;
        }
        SplittableRandom random = new SplittableRandom(spec.seed() * 31 - 1);
        double meanGapNs = 1e9 / spec.lambda();
        Waiter waiter = Waiter.realTime(clock);
        long arrivalNs = nextArrival(random, originNs, meanGapNs);
        while (arrivalNs - endNs < 0) {
            waiter.waitUntil(arrivalNs);
            rigs.get(random.nextInt(rigs.size())).submit(clock.nanoTime());
            arrivalNs = nextArrival(random, arrivalNs, meanGapNs);
        }
    }

    private static long nextArrival(SplittableRandom random, long fromNs, double meanGapNs) {
        if (Double.isInfinite(meanGapNs)) {
            return Long.MAX_VALUE / 2;
        }
        return fromNs + Math.max(1, (long) (-Math.log(1 - random.nextDouble()) * meanGapNs));
    }

    private static long bufferCeiling(LoadSpec spec) {
        long streams = 2L * spec.disks() * spec.streamsPerDisk()
            * BufferPool.classCapacity(spec.maxFragmentBytes() + 2 * DiskIo.ALIGNMENT);
        return streams + 256L * BufferPool.classCapacity(spec.maxDiscreteBytes() + 2 * DiskIo.ALIGNMENT);
    }

    private static LoadResult result(LoadSpec spec, String mode, DiskIo io, List<Rig> rigs, double wallSeconds) {
        ResponseTimes responses = new ResponseTimes();
        long glitches = 0;
        long overruns = 0;
        long lateNs = 0;
        long emulatedIos = 0;
        long errors = 0;
        long rejected = 0;
        long completed = 0;
        double[][] slack = new double[rigs.size()][];
        for (int disk = 0; disk < rigs.size(); disk++) {
            Rig rig = rigs.get(disk);
            responses.addAll(rig.responses);
            glitches += rig.glitches;
            if (rig.device instanceof EmulatedDisk emulated) {
                overruns += emulated.overrunIos();
                lateNs += emulated.lateNs();
                emulatedIos += emulated.ios();
            }
            errors += rig.executor.ioErrors();
            rejected += rig.rejected;
            completed += rig.completedInWindow;
            slack[disk] = Arrays.stream(rig.slackNs, spec.warmupRounds(), spec.warmupRounds() + spec.rounds())
                .mapToDouble(ns -> ns / 1e6).toArray();
        }
        double seconds = spec.rounds() * spec.roundNs() / 1e9;
        return new LoadResult(spec, mode, io.kind(), responses.count(), responses.meanNs() / 1e6,
            responses.percentileNs(0.95) / 1e6, responses.percentileNs(0.99) / 1e6, responses.maxNs() / 1e6,
            completed / seconds, glitches, slack, overruns, emulatedIos == 0 ? 0 : lateNs / 1e3 / emulatedIos, errors,
            rejected, wallSeconds);
    }

    private static void closeAll(List<Rig> rigs) throws IOException {
        IOException first = null;
        for (Rig rig : rigs) {
            try {
                rig.file.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Creates (or keeps, if it is already the right size) a data file of patterned bytes. */
    static Path dataFile(Path dir, int disk, long bytes) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("rondo-load-disk" + disk + ".dat");
        if (Files.isRegularFile(file) && Files.size(file) == bytes) {
            return file;
        }
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long written = 0; written < bytes; ) {
                chunk.clear();
                for (int i = 0; i < chunk.capacity(); i += Long.BYTES) {
                    chunk.putLong(i, (written + i) * 0x9E3779B97F4A7C15L);
                }
                chunk.limit((int) Math.min(chunk.capacity(), bytes - written));
                written += channel.write(chunk);
            }
            channel.force(true);
        }
        return file;
    }

    /** One disk's executor and everything around it; its counters are written by its executor only. */
    private static final class Rig implements ScheduleObserver, IoCompletion {
        final LoadSpec spec;
        final int disk;
        final OpenFile file;
        final DiskScheduler scheduler;
        final BlockDevice device;
        final DiskExecutor executor;
        final SplittableRandom random;
        final long originNs;
        final long windowStartNs;
        final long windowEndNs;
        final long[] slackNs;
        final ResponseTimes responses = new ResponseTimes();
        final BufferPool buffers;
        long nextId;
        long glitches;
        long completedInWindow;
        volatile long rejected;

        Rig(LoadSpec spec, DiskIo io, int disk, BufferPool buffers, NanoClock clock, Waiter waiter, long originNs)
            throws IOException {
            this.spec = spec;
            this.disk = disk;
            this.buffers = buffers;
            this.originNs = originNs;
            this.file = io.open(dataFile(spec.dataDir(), disk, spec.fileBytes()));
            this.random = new SplittableRandom(spec.seed() * 1_000_003 + disk);
            this.scheduler = new DiskScheduler(spec.policy(), spec.model(), spec.roundNs(), 0, this);
            this.device = spec.emulated()
                ? new EmulatedDisk(BlockDevice.direct(), spec.model(), clock, waiter, spec.seed() + disk)
                : BlockDevice.direct();
            this.executor = new DiskExecutor(Integer.toString(disk), scheduler, device, buffers, clock,
                QUEUE_CAPACITY);
            this.windowStartNs = originNs + spec.warmupRounds() * spec.roundNs();
            this.windowEndNs = windowStartNs + spec.rounds() * spec.roundNs();
            this.slackNs = new long[spec.warmupRounds() + spec.rounds() + 2];
            Arrays.fill(slackNs, spec.roundNs());
            for (int stream = 0; stream < spec.streamsPerDisk(); stream++) {
                if (!buffers.reserveStream(streamId(stream), spec.maxFragmentBytes() + 2 * DiskIo.ALIGNMENT)) {
                    throw new IllegalStateException("the buffer pool cannot hold the streams' double buffers");
                }
            }
        }

        long streamId(int stream) {
            return (long) disk * 1_000_000 + stream;
        }

        /** This round's C-requests: one fragment per stream. Called on the round clock's thread. */
        synchronized List<ContinuousRequest> continuousFor(long roundIndex) {
            List<ContinuousRequest> requests = new ArrayList<>(spec.streamsPerDisk());
            for (int stream = 0; stream < spec.streamsPerDisk(); stream++) {
                int size = (int) Math.min(spec.maxFragmentBytes(),
                    spec.cbrBytes() > 0 ? spec.cbrBytes() : spec.vbrSize().sample(random));
                long offset = randomOffset(size);
                ContinuousRequest request = new ContinuousRequest(nextId++, stream, position(offset, size), size);
                request.attach(new IoTask(file, offset, size, streamId(stream), this));
                requests.add(request);
            }
            return requests;
        }

        /** A D-request arrives now. Called on the load thread. */
        void submit(long arrivalNs) {
            long id;
            int size;
            long offset;
            synchronized (this) {
                id = nextId++;
                size = (int) Math.min(spec.maxDiscreteBytes(), spec.discreteSize().sample(random));
                offset = randomOffset(size);
            }
            DiscreteRequest request = new DiscreteRequest(id, id, position(offset, size), size, arrivalNs);
            request.attach(new IoTask(file, offset, size, BufferPool.NO_STREAM, this));
            if (!executor.submit(request)) {
                rejected++;
            }
        }

        private long randomOffset(int size) {
            long slots = (spec.fileBytes() - size) / DiskIo.ALIGNMENT;
            return (long) (random.nextDouble() * slots) * DiskIo.ALIGNMENT;
        }

        /** Emulated: the model's position, in proportion to the offset. Real: the physical address. */
        private long position(long offset, int size) {
            if (spec.emulated()) {
                double share = (double) offset / (spec.fileBytes() - size);
                return Math.min((long) (share * spec.model().capacityBytes()), spec.model().capacityBytes() - 1);
            }
            try {
                return file.physicalPosition(offset);
            } catch (IOException e) {
                return offset;
            }
        }

        @Override
        public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
            if (buffer != null) {
                buffer.release();
            }
            if (request instanceof DiscreteRequest discrete) {
                if (discrete.arrivalNs() - windowStartNs >= 0 && completedNs - windowEndNs <= 0) {
                    responses.add(completedNs - discrete.arrivalNs());
                }
                if (completedNs - windowStartNs > 0 && completedNs - windowEndNs <= 0) {
                    completedInWindow++;
                }
            } else {
                ContinuousRequest continuous = (ContinuousRequest) request;
                recordSlack(continuous, continuous.deadlineNs() - completedNs);
            }
        }

        @Override
        public void failed(DiskRequest request, Exception error, long failedNs) {
            if (request instanceof ContinuousRequest continuous) {
                recordSlack(continuous, continuous.deadlineNs() - failedNs);
            }
        }

        @Override
        public void glitch(ContinuousRequest request, long glitchNs, boolean discarded) {
            if (request.deadlineNs() - windowStartNs > 0 && request.deadlineNs() - windowEndNs <= 0) {
                glitches++;
            }
            if (discarded) {
                recordSlack(request, Math.min(0, request.deadlineNs() - glitchNs) - 1);
            }
        }

        private void recordSlack(ContinuousRequest request, long slack) {
            int roundIndex = (int) ((request.deadlineNs() - originNs) / spec.roundNs()) - 1;
            if (roundIndex >= 0 && roundIndex < slackNs.length) {
                slackNs[roundIndex] = Math.min(slackNs[roundIndex], slack);
            }
        }
    }
}

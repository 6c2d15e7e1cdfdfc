package io.rondo.scheduler.device;

import io.rondo.scheduler.device.ServiceTimeFit.Sample;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * XTREAM's disk profiler (papers/000 Section 2.3, Figure 3): reads of one size at random
 * positions, for sizes from 4 KiB to 8 MiB, each timed, giving throughput against IO size. From
 * the mean times it fits the service time {@code t(s) = a + s / R}: {@code a} the access penalty
 * of any IO (seek and rotation, Equation 1's {@code T_access}), {@code R} the transfer rate; that
 * is the whole model a measured {@code DiskProfile} needs.
 *
 * <p>The reads go to a test file written for the purpose, synced, and read with O_DIRECT so that
 * the device, not the page cache, answers. Writes are timed the same way, as a recording writes
 * (papers/000 Section 2.1: write streams beside read streams): each a direct write at a random
 * position of a scratch file whose blocks were reserved ahead (papers/002 Section 4), followed by
 * fdatasync; they get their own fit. Both files are deleted at the end, on failure, and on Ctrl-C
 * (a shutdown hook held while they exist).
 *
 * <p>How long it takes is its {@link Effort}: {@code rondo profile} spends {@link Effort#FULL} on
 * a device, and a server's first start on a disk {@link Effort#QUICK}, a smaller test file and
 * fewer reads of each size, so that it starts within seconds; the fit is the same.
 */
public final class DiskProfiler {

    /** The smallest test file: a few reads of the largest size must fit at distinct places. */
    public static final long MIN_FILE_BYTES = 16L << 20;
    /** The smallest IO profiled: one O_DIRECT block. */
    public static final int MIN_IO_BYTES = DiskIo.ALIGNMENT;
    /** The largest IO profiled by default. */
    public static final int MAX_IO_BYTES = 8 << 20;
    /** The share of the free space left free: the test file takes at most the rest. */
    public static final double FREE_SPACE_MARGIN = 0.10;

    static final int MAX_READS = 512;

    private static final int WRITE_CHUNK = 1 << 20;

    private final DiskIo io;
    private final int maxIoBytes;
    private final long seed;
    private final Effort effort;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;

    /**
     * A profiler reading with {@code io}, IO sizes up to {@code maxIoBytes} (a power of two, at
     * least 8 KiB: two sizes at least, to fit a line), positions drawn from {@code seed}, spending
     * {@code effort} on each IO size; {@code nanoClock} times the reads and the run, and
     * {@code epochClock} tells when the run was measured.
     */
    public DiskProfiler(DiskIo io, int maxIoBytes, long seed, Effort effort, NanoClock nanoClock,
                        EpochClock epochClock) {
        if (maxIoBytes < 2 * MIN_IO_BYTES || Integer.bitCount(maxIoBytes) != 1
            || maxIoBytes > AlignedBuffers.MAX_CAPACITY) {
            throw new IllegalArgumentException("the largest IO size must be a power of two from "
                + 2 * MIN_IO_BYTES + " bytes on, was " + maxIoBytes);
        }
        this.io = io;
        this.maxIoBytes = maxIoBytes;
        this.seed = seed;
        this.effort = effort;
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
    }

    /**
     * The test file's size for a request of {@code requestedBytes} in {@code dir}: at most the
     * free space less {@link #FREE_SPACE_MARGIN}, in whole MiB.
     *
     * @throws IllegalArgumentException if that is under {@link #MIN_FILE_BYTES}, or {@code dir} is not a directory
     */
    public static long fileBytes(Path dir, long requestedBytes) throws IOException {
        checkDirectory(dir);
        if (requestedBytes < MIN_FILE_BYTES) {
            throw new IllegalArgumentException("the test file must be at least " + MIN_FILE_BYTES / (1 << 20)
                + " MiB, was " + requestedBytes + " bytes");
        }
        long free = Files.getFileStore(dir).getUsableSpace();
        long allowed = (long) (free * (1 - FREE_SPACE_MARGIN));
        long bytes = Math.min(requestedBytes, allowed) / WRITE_CHUNK * WRITE_CHUNK;
        if (bytes < MIN_FILE_BYTES) {
            throw new IllegalArgumentException("only " + free / (1 << 20) + " MiB free in " + dir + ": less a "
                + Math.round(FREE_SPACE_MARGIN * 100) + "% margin that is under the " + MIN_FILE_BYTES / (1 << 20)
                + " MiB the test file needs");
        }
        return bytes;
    }

    /**
     * Profiles the device behind {@code dir} with a test file of {@code requestedBytes} (less if
     * the free space is short, see {@link #fileBytes}), telling {@code listener} how far it got.
     * A listener that throws stops the run: the exception comes out of here, and the test file is
     * deleted as on any failure.
     *
     * @throws IllegalArgumentException if {@code dir} is unfit: missing, not a directory, too
     *                                  little free space, or a file system that refuses O_DIRECT
     * @throws IOException              if writing or reading the test file fails
     */
    public Result run(Path dir, long requestedBytes, Listener listener) throws IOException {
        long fileBytes = fileBytes(dir, requestedBytes);
        DeviceInfo device = io.device(dir);
        Path file = Files.createTempFile(dir, ".rondo-profile-", ".tmp");
        Path scratch = dir.resolve(file.getFileName() + ".write");
        Thread cleanup = new Thread(() -> {
            deleteQuietly(file);
            deleteQuietly(scratch);
        }, "rondo-profile-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            Instant started = Instant.ofEpochMilli(epochClock.time());
            long startNs = nanoClock.nanoTime();
            write(file, fileBytes, listener);
            ByteBuffer buffer = AlignedBuffers.allocate((int) Math.min(maxIoBytes, fileBytes));
            List<Sample> samples = measure(file, fileBytes, buffer, listener);
            long spanBytes = Math.min(fileBytes, (long) (Files.getFileStore(dir).getUsableSpace()
                * (1 - FREE_SPACE_MARGIN)) / WRITE_CHUNK * WRITE_CHUNK);
            List<Sample> writeSamples = measureWrites(scratch, spanBytes, buffer, listener);
            Fit fit = ServiceTimeFit.fit(samples);
            Fit writeFit = writeFit(writeSamples, fit);
            return new Result(dir.toAbsolutePath().normalize(), device, io.kind(), fileBytes,
                started.truncatedTo(ChronoUnit.SECONDS), (nanoClock.nanoTime() - startNs) / 1e9, rows(samples, fit),
                fit, rows(writeSamples, writeFit), writeFit);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or about to: it deletes the files.
            }
            Files.deleteIfExists(file);
            Files.deleteIfExists(scratch);
        }
    }

    private static List<Row> rows(List<Sample> samples, Fit fit) {
        List<Row> rows = new ArrayList<>();
        for (Sample sample : samples) {
            rows.add(sample.row(fit));
        }
        return rows;
    }

    /** The IO sizes timed in a span of {@code spanBytes}: powers of two from one block to the largest that fits. */
    private List<Integer> sizes(long spanBytes) {
        List<Integer> sizes = new ArrayList<>();
        for (long size = MIN_IO_BYTES; size <= Math.min(maxIoBytes, spanBytes); size <<= 1) {
            sizes.add((int) size);
        }
        return sizes;
    }

    private void write(Path file, long fileBytes, Listener listener) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        ByteBuffer chunk = ByteBuffer.allocateDirect(WRITE_CHUNK);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long written = 0; written < fileBytes; ) {
                // Random bytes: a file system or device that compresses or deduplicates cannot shortcut them.
                chunk.clear();
                for (int i = 0; i < WRITE_CHUNK; i += Long.BYTES) {
                    chunk.putLong(i, random.nextLong());
                }
                while (chunk.hasRemaining()) {
                    written += channel.write(chunk);
                }
                listener.progress(Phase.WRITING, written, fileBytes);
            }
            channel.force(true);
        }
    }

    private List<Sample> measure(Path file, long fileBytes, ByteBuffer buffer, Listener listener) throws IOException {
        try (OpenFile open = io.open(file)) {
            if (open instanceof JavaOpenFile java && !java.direct()) {
                throw new IllegalArgumentException("the file system of " + file.getParent() + " refuses O_DIRECT: "
                    + "the reads would be answered by the page cache, not the device");
            }
            open.advise(0, fileBytes, OpenFile.Advice.DONTNEED);
            timedRead(open, buffer, MIN_IO_BYTES, 0); // the first read pays for what only happens once
            return timeSizes(sizes(fileBytes), fileBytes, new SplittableRandom(seed + 1), Phase.READING, listener,
                (size, offset) -> timedRead(open, buffer, size, offset));
        }
    }

    /**
     * Times direct writes, each made durable, at random places of {@code scratch}, reserved over
     * {@code spanBytes} first as a recording's file is; the bytes written are what {@code buffer}
     * holds, random ones read from the test file.
     */
    private List<Sample> measureWrites(Path scratch, long spanBytes, ByteBuffer buffer, Listener listener)
        throws IOException {
        List<Integer> sizes = sizes(spanBytes);
        if (sizes.size() < 2) {
            throw new IllegalArgumentException("too little free space left in " + scratch.getParent()
                + " to time writes of two sizes beside the test file");
        }
        try (WritableFile out = io.openForWriting(scratch)) {
            out.allocate(0, spanBytes);
            timedWrite(out, buffer, MIN_IO_BYTES, 0); // the first write pays for what only happens once
            return timeSizes(sizes, spanBytes, new SplittableRandom(seed + 2), Phase.TIMING_WRITES, listener,
                (size, offset) -> timedWrite(out, buffer, size, offset));
        }
    }

    /**
     * Times IOs of each size at random aligned places of a span of {@code spanBytes}, as many as
     * the {@link Effort} asks, telling {@code listener} of each size done in {@code phase}.
     */
    private List<Sample> timeSizes(List<Integer> sizes, long spanBytes, SplittableRandom random, Phase phase,
                                   Listener listener, TimedIo timed) throws IOException {
        List<Sample> samples = new ArrayList<>();
        listener.progress(phase, 0, sizes.size());
        for (int size : sizes) {
            long blocks = (spanBytes - size) / DiskIo.ALIGNMENT + 1;
            long[] times = new long[MAX_READS];
            int ios = 0;
            long spentNs = 0;
            while (ios < effort.minReads() || ios < MAX_READS && spentNs < effort.timePerSizeNs()) {
                long ns = timed.ns(size, random.nextLong(blocks) * DiskIo.ALIGNMENT);
                times[ios++] = ns;
                spentNs += ns;
            }
            samples.add(new Sample(size, ios, times));
            listener.progress(phase, samples.size(), sizes.size());
        }
        return samples;
    }

    private long timedRead(OpenFile open, ByteBuffer buffer, int size, long offset) throws IOException {
        buffer.clear().limit(size);
        long startNs = nanoClock.nanoTime();
        int read = open.readAligned(offset, buffer);
        long ns = nanoClock.nanoTime() - startNs;
        if (read != size) {
            throw new IOException("read " + open.path() + ": " + read + " of " + size + " bytes at offset " + offset);
        }
        return ns;
    }

    private long timedWrite(WritableFile out, ByteBuffer buffer, int size, long offset) throws IOException {
        buffer.clear().limit(size);
        long startNs = nanoClock.nanoTime();
        out.writeAligned(offset, buffer);
        out.force();
        return nanoClock.nanoTime() - startNs;
    }

    /** One timed IO of {@code size} bytes at {@code offset}: how long it took. */
    @FunctionalInterface
    private interface TimedIo {
        long ns(int size, long offset) throws IOException;
    }

    private static void checkDirectory(Path dir) {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " does not exist");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LoggerFactory.getLogger(DiskProfiler.class).warn("cannot delete the profiler's test file {}: {}", file,
                e.getMessage());
        }
    }

    /**
     * How much a run spends on each IO size: at least {@code minReads} reads (at most
     * {@value #MAX_READS}), more while their times add up to less than {@code timePerSizeNs}.
     *
     * @param minReads      the fewest reads of each size, at least 2
     * @param timePerSizeNs the time reads of one size may take before the run moves on
     */
    public record Effort(int minReads, long timePerSizeNs) {

        /** {@code rondo profile}'s: 16 reads of each size at least, up to a quarter of a second. */
        public static final Effort FULL = new Effort(16, 250_000_000L);
        /**
         * A server's first start on a disk: 8 reads of each size at least, up to a tenth of a
         * second; about a second on a solid-state disk, a few on a spinning one.
         */
        public static final Effort QUICK = new Effort(8, 100_000_000L);

        public Effort {
            if (minReads < 2 || minReads > MAX_READS) {
                throw new IllegalArgumentException("each IO size needs 2 to " + MAX_READS + " reads, was " + minReads);
            }
            if (timePerSizeNs < 0) {
                throw new IllegalArgumentException("the time per IO size must not be negative, was "
                    + timePerSizeNs + " ns");
            }
        }
    }

    /** Where a run is. */
    public enum Phase {
        /** Writing the test file: {@code done} of {@code total} bytes. */
        WRITING,
        /** Timing reads: {@code done} of {@code total} IO sizes measured. */
        READING,
        /** Timing writes, each made durable: {@code done} of {@code total} IO sizes measured. */
        TIMING_WRITES
    }

    /** Told how far a run got. */
    @FunctionalInterface
    public interface Listener {

        /** Tells nobody. */
        Listener NONE = (phase, done, total) -> { };

        /** {@code done} of {@code total} in {@code phase}; called on the profiling thread. */
        void progress(Phase phase, long done, long total);
    }

    /**
     * One IO size: the throughput of its slowest, average and fastest read (MB/s, 10^6 bytes),
     * its mean and longest service time, and its mean and longest access time (service time less
     * the fitted transfer time {@code s / R}). A row of writes says the same of writes, each made
     * durable, {@code reads} counting them.
     */
    public record Row(int ioBytes, int reads, double minMBps, double meanMBps, double maxMBps,
                      double meanMs, double maxMs, double meanAccessMs, double maxAccessMs) {
    }

    /**
     * The fitted service time {@code t(s) = accessMs + s / transferBytesPerSecond}, and the access
     * time {@code accessMaxMs} with which the same line lies above every read measured.
     */
    /**
     * The writes' model: fitted as the reads' are, or, where a write's time does not grow with its
     * size (the {@code fdatasync} each waits for dominates, as on a device with a write cache), at
     * the reads' transfer rate with the access time the writes took.
     */
    private static Fit writeFit(List<Sample> writeSamples, Fit readFit) {
        try {
            return ServiceTimeFit.fit(writeSamples);
        } catch (IOException flat) {
            return ServiceTimeFit.fitAtRate(writeSamples, readFit.transferBytesPerSecond());
        }
    }

    public record Fit(double accessMs, double accessMaxMs, double transferBytesPerSecond) {

        /** The fitted mean service time of an IO of {@code bytes}, in milliseconds. */
        public double serviceMs(long bytes) {
            return accessMs + bytes / transferBytesPerSecond * 1e3;
        }
    }

    /**
     * A run's outcome.
     *
     * @param dir        the directory profiled
     * @param device     the device behind it
     * @param reader     the reader used ({@code native} or {@code java})
     * @param fileBytes  the test file's size
     * @param measuredAt when the run started
     * @param seconds    how long it took, writing included
     * @param rows       one per IO size, smallest first
     * @param fit        the service-time model fitted to them
     * @param writeRows  the same of writes (a direct write and fdatasync each); empty if not measured
     * @param writeFit   the service-time model fitted to the writes, or null if not measured
     */
    public record Result(Path dir, DeviceInfo device, String reader, long fileBytes, Instant measuredAt,
                         double seconds, List<Row> rows, Fit fit, List<Row> writeRows, Fit writeFit) {

        public Result {
            rows = List.copyOf(rows);
            writeRows = List.copyOf(writeRows);
            if (writeRows.isEmpty() != (writeFit == null)) {
                throw new IllegalArgumentException("write rows and a write fit go together");
            }
        }

        /** A run that timed reads only. */
        public Result(Path dir, DeviceInfo device, String reader, long fileBytes, Instant measuredAt,
                      double seconds, List<Row> rows, Fit fit) {
            this(dir, device, reader, fileBytes, measuredAt, seconds, rows, fit, List.of(), null);
        }

        /** The fit of the writes, if they were timed. */
        public Optional<Fit> writes() {
            return Optional.ofNullable(writeFit);
        }

        /** {@code measured-<device>}. */
        public String profileName() {
            return "measured-" + device.name();
        }

        /**
         * The profile as {@code DiskProfile} loads it: one band of the test file per cylinder,
         * any move costing {@code a}, a revolution of {@code a_max - a} (so that seek, worst
         * rotation and transfer bound the slowest read measured), one zone at {@code R}; and the
         * rows, under {@code measured}.
         */
        public String profileJson() {
            return ProfileJson.of(this);
        }

        /** Writes {@link #profileJson()} to {@code file}. */
        public void writeProfile(Path file) throws IOException {
            Files.writeString(file, profileJson());
        }
    }
}

package io.rondo.server.config;

/**
 * The disks' run-time limits, beside the policy and the round in {@code scheduler:} of
 * {@code rondo.yaml}. Each key's default is the constant beside it.
 *
 * @param maxReadBytes           {@code scheduler.maxRead}: the most bytes one D-request reads (K, M: powers
 *                               of 1024); a larger transfer is many of them, so none holds a disk long
 * @param queueCapacity          {@code scheduler.queue}: D-requests that may wait to be handed to one disk's
 *                               executor; past it the disk refuses (503) rather than queue without bound
 * @param generatorQueueCapacity {@code scheduler.generatorQueue}: reads and stream starts that may wait for
 *                               the generator (which opens files and finds their positions); past it, 503
 */
public record DiskSettings(int maxReadBytes, int queueCapacity, int generatorQueueCapacity) {

    /** {@code scheduler.maxRead}. */
    public static final int DEFAULT_MAX_READ = 256 * 1024;
    /** {@code scheduler.queue}. */
    public static final int DEFAULT_QUEUE = 4096;
    /** {@code scheduler.generatorQueue}. */
    public static final int DEFAULT_GENERATOR_QUEUE = 4096;

    /** Checks every limit once. */
    public DiskSettings {
        Settings.positive(maxReadBytes, "scheduler.maxRead");
        Settings.positive(queueCapacity, "scheduler.queue");
        Settings.positive(generatorQueueCapacity, "scheduler.generatorQueue");
    }

    /** The disks' keys of {@code scheduler:} as written: what they say, the defaults for the rest. */
    static DiskSettings read(SchedulerSettings.Section written) {
        return new DiskSettings(Settings.size(written.maxRead(), "scheduler.maxRead", DEFAULT_MAX_READ),
            Settings.orDefault(written.queue(), DEFAULT_QUEUE),
            Settings.orDefault(written.generatorQueue(), DEFAULT_GENERATOR_QUEUE));
    }

    /** Every key at its default. */
    public static DiskSettings defaults() {
        return new DiskSettings(DEFAULT_MAX_READ, DEFAULT_QUEUE, DEFAULT_GENERATOR_QUEUE);
    }
}

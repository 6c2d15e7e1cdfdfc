package io.rondo.scheduler.cycle;

/**
 * A utilization for the tests: each IO costs a fixed access time and its transfer at a fixed
 * rate; memory is the double-buffered reservation of {@link CycleSchedule#reservedBytes()}.
 */
record DiskAndMemory(long accessNs, double bytesPerSecond, long memoryBytes) implements Utilization {

    /** The papers/003 disk, 10 ms a random access and 50 MB/s, with 128 MiB of buffer memory. */
    static DiskAndMemory paper() {
        return new DiskAndMemory(10_000_000, 50e6, 128L << 20);
    }

    @Override
    public double memory(CycleSchedule schedule) {
        return schedule.horizon().stream().mapToLong(CycleSchedule::reservedBytes).max().orElse(0)
            / (double) memoryBytes;
    }

    @Override
    public double cycle(CycleSchedule schedule) {
        double worst = 0;
        for (CycleSchedule cycle : schedule.horizon()) {
            double ns = cycle.reads().stream()
                .mapToDouble(read -> accessNs + read.bytes() * 1e9 / bytesPerSecond).sum();
            worst = Math.max(worst, ns / cycle.cycleNs());
        }
        return worst;
    }
}

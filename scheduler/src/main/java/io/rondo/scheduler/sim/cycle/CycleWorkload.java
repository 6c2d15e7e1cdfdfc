package io.rondo.scheduler.sim.cycle;

/**
 * A workload of papers/003 Section 3: streams arriving at uniformly random gaps, each at a rate
 * drawn from a mix, playing for a uniformly random time, on one disk with a fixed buffer memory.
 *
 * @param name          a short name, for tables and CSV cells: no comma
 * @param disk          the disk
 * @param memoryBytes   the buffer memory (the paper: 128 MB, taken as 128 MiB)
 * @param accounting    how buffer memory is counted
 * @param rates         how stream rates are drawn
 * @param minGapNs      the shortest time between two arrivals (the paper: 2 s)
 * @param maxGapNs      the longest (the paper: 7 s)
 * @param minDurationNs the shortest a stream plays (the paper does not say)
 * @param maxDurationNs the longest
 * @param runNs         how long the run lasts (the paper: 20 minutes)
 * @param quantumNs     every cycle is a whole number of these
 * @param seed          the seed: one seed gives one run, bit for bit
 */
public record CycleWorkload(String name, PaperDisk disk, long memoryBytes, MemoryAccounting accounting, RateMix rates,
                            long minGapNs, long maxGapNs, long minDurationNs, long maxDurationNs, long runNs,
                            long quantumNs, long seed) {

    /** Bits a second in a "kbps" read as kilobits a second. */
    public static final long KILOBITS = 1_000;
    /** Bits a second in a "kbps" read as kilobytes a second. */
    public static final long KILOBYTES = 8_000;

    private static final long SECOND = 1_000_000_000L;
    private static final long MINUTE = 60 * SECOND;

    public CycleWorkload {
        if (name.contains(",")) {
            throw new IllegalArgumentException("a workload's name goes in a CSV cell: no comma, was '" + name + "'");
        }
        if (memoryBytes <= 0) {
            throw new IllegalArgumentException("the buffer memory must be positive, was " + memoryBytes);
        }
        if (minGapNs <= 0 || maxGapNs < minGapNs) {
            throw new IllegalArgumentException("arrival gaps must satisfy 0 < min <= max, were " + minGapNs + " and "
                + maxGapNs + " ns");
        }
        if (minDurationNs <= 0 || maxDurationNs < minDurationNs) {
            throw new IllegalArgumentException("durations must satisfy 0 < min <= max, were " + minDurationNs + " and "
                + maxDurationNs + " ns");
        }
        if (runNs < SECOND) {
            throw new IllegalArgumentException("a run must last at least a second, was " + runNs + " ns");
        }
        if (quantumNs < 1_000_000) {
            throw new IllegalArgumentException("the quantum must be at least 1 ms, was " + quantumNs + " ns");
        }
    }

    /**
     * The workload of papers/003 Figures 3-5a: 128 MiB, the 50 MB/s disk with 10 ms access,
     * arrivals every 2-7 s, 20 minutes, rates uniform in 128-1024 "kbps" read as kilobytes a
     * second (the only reading under which the paper's Figures 3 and 4 can happen; see
     * docs/stream-combination.md); streams play 20 to 60 minutes, so none ends within the run;
     * memory double-buffered; cycles in 100 ms quanta.
     */
    public static CycleWorkload paper() {
        return paper(KILOBYTES);
    }

    /**
     * The paper's workload with its rates read in the given unit: {@link #KILOBYTES} (the default)
     * or {@link #KILOBITS} (128-1024 kbit/s).
     */
    public static CycleWorkload paper(long bitsPerKbps) {
        if (bitsPerKbps != KILOBITS && bitsPerKbps != KILOBYTES) {
            throw new IllegalArgumentException("a kbps is 1000 or 8000 bit/s, was " + bitsPerKbps);
        }
        return new CycleWorkload("paper", PaperDisk.paper(), 128L << 20, MemoryAccounting.DOUBLE_BUFFERED,
            RateMix.uniform(128 * bitsPerKbps, 1_024 * bitsPerKbps), 2 * SECOND, 7 * SECOND, 20 * MINUTE,
            60 * MINUTE, 20 * MINUTE, SECOND / 10, 1);
    }

    public CycleWorkload withName(String newName) {
        return new CycleWorkload(newName, disk, memoryBytes, accounting, rates, minGapNs, maxGapNs, minDurationNs,
            maxDurationNs, runNs, quantumNs, seed);
    }

    public CycleWorkload withRates(RateMix newRates) {
        return new CycleWorkload(name, disk, memoryBytes, accounting, newRates, minGapNs, maxGapNs, minDurationNs,
            maxDurationNs, runNs, quantumNs, seed);
    }

    public CycleWorkload withGaps(long newMinGapNs, long newMaxGapNs) {
        return new CycleWorkload(name, disk, memoryBytes, accounting, rates, newMinGapNs, newMaxGapNs, minDurationNs,
            maxDurationNs, runNs, quantumNs, seed);
    }

    public CycleWorkload withDurations(long newMinNs, long newMaxNs) {
        return new CycleWorkload(name, disk, memoryBytes, accounting, rates, minGapNs, maxGapNs, newMinNs, newMaxNs,
            runNs, quantumNs, seed);
    }

    public CycleWorkload withAccounting(MemoryAccounting newAccounting) {
        return new CycleWorkload(name, disk, memoryBytes, newAccounting, rates, minGapNs, maxGapNs, minDurationNs,
            maxDurationNs, runNs, quantumNs, seed);
    }

    public CycleWorkload withRunNs(long newRunNs) {
        return new CycleWorkload(name, disk, memoryBytes, accounting, rates, minGapNs, maxGapNs, minDurationNs,
            maxDurationNs, newRunNs, quantumNs, seed);
    }

    public CycleWorkload withSeed(long newSeed) {
        return new CycleWorkload(name, disk, memoryBytes, accounting, rates, minGapNs, maxGapNs, minDurationNs,
            maxDurationNs, runNs, quantumNs, newSeed);
    }

    /** The utilization the admission and stream combination see under this workload. */
    public CycleUtilization utilization() {
        return new CycleUtilization(disk, memoryBytes, accounting);
    }
}

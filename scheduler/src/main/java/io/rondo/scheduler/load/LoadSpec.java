package io.rondo.scheduler.load;

import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.scheduler.sim.SizeDistribution;
import io.rondo.scheduler.sim.Workload;

import java.nio.file.Path;

/**
 * A dummy-stream run: {@code streamsPerDisk} read streams on each disk and a Poisson D-load of
 * {@code lambda} per second over all disks, for {@code rounds} measured rounds after a warm-up.
 *
 * @param policy          the scheduling policy
 * @param model           the disk model the scheduler estimates with; the emulated disks' timing too
 * @param emulated        true: emulated disks (real bytes, the model's timing, the model's positions);
 *                        false: the real device's own timing, positions from FIEMAP
 * @param dataDir         where the files the streams read live (created if missing)
 * @param fileBytes       the size of each disk's data file
 * @param disks           disks; each gets its own data file, executor and scheduler
 * @param streamsPerDisk  N, read streams per disk
 * @param cbrBytes        the fragment size of a CBR stream, or 0 for VBR streams
 * @param vbrSize         the fragment sizes of VBR streams
 * @param lambda          D-requests per second over all disks
 * @param discreteSize    D-request sizes
 * @param roundNs         the round length
 * @param rounds          rounds measured
 * @param warmupRounds    rounds run first and not measured
 * @param seed            the seed of sizes, positions and arrivals
 */
public record LoadSpec(SchedulingPolicy policy, DiskModel model, boolean emulated, Path dataDir, long fileBytes,
                       int disks, int streamsPerDisk, long cbrBytes, SizeDistribution vbrSize, double lambda,
                       SizeDistribution discreteSize, long roundNs, int rounds, int warmupRounds, long seed) {

    public LoadSpec {
        if (disks < 1 || streamsPerDisk < 0 || rounds < 1 || warmupRounds < 0) {
            throw new IllegalArgumentException("a load needs at least one disk and one measured round, and no "
                + "negative counts");
        }
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("the arrival rate must be a finite number >= 0, was " + lambda);
        }
        if (roundNs < 10_000_000) {
            throw new IllegalArgumentException("a round must last at least 10 ms, was " + roundNs + " ns");
        }
        if (fileBytes < 16L << 20) {
            throw new IllegalArgumentException("each data file needs at least 16 MiB, was " + fileBytes + " bytes");
        }
        if (cbrBytes < 0) {
            throw new IllegalArgumentException("a CBR fragment size must not be negative, was " + cbrBytes);
        }
    }

    /** The simulator's workload for the same load, for comparison. */
    public Workload asWorkload() {
        SizeDistribution continuous = cbrBytes > 0 ? SizeDistribution.gamma(cbrBytes, 0) : vbrSize;
        return new Workload(disks, streamsPerDisk, lambda, continuous, discreteSize, roundNs, rounds, warmupRounds,
            seed, false);
    }

    /** The largest fragment a stream reads: CBR's size, or VBR sizes cut at six deviations above the mean. */
    public int maxFragmentBytes() {
        long bytes = cbrBytes > 0 ? cbrBytes : (long) (vbrSize.meanBytes() + 6 * vbrSize.sdBytes());
        return (int) Math.min(bytes, fileBytes / 4);
    }

    /** The largest D-request read: sizes cut at six deviations above the mean. */
    public int maxDiscreteBytes() {
        return (int) Math.min((long) (discreteSize.meanBytes() + 6 * discreteSize.sdBytes()), fileBytes / 4);
    }
}

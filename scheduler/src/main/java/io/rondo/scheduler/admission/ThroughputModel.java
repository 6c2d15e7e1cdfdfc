package io.rondo.scheduler.admission;

import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.disk.DiskProfile;

import java.util.List;
import java.util.Locale;

/**
 * One disk's two curves of papers/000 Figure 3, as IO times: the time to read one IO of size
 * {@code s} at a random position on the <em>min</em> curve (the slowest reads: a time nearly every
 * read stays within) and on the <em>mean</em> curve (the average read).
 *
 * <p><b>Measured profiles</b> ({@link DiskProfile#measuredRows()} not empty) give the curves
 * directly: throughput {@code P(s)} is interpolated linearly in {@code log s} between the measured
 * sizes, min from the rows' {@code minMBps}, mean from their {@code meanMBps}, and the IO time is
 * {@code s / P(s)}. Outside the measured sizes the profile's fitted line takes over, as the
 * profile's seek and transfer give it ({@code DiskProfiler} writes a flat seek of the fitted
 * access time {@code a} and a revolution of {@code a_max - a}): mean {@code a + s/R}, min
 * {@code a_max + s/R}, which bounds the slowest read measured.
 *
 * <p><b>Modelled disks</b> (the paper's, papers/001 Table 1, or any {@link DiskModel}) have no
 * measurements, so both curves come from the model, for a read at a uniformly random position
 * with the head at another uniformly random position (the profiler's experiment, done on paper):
 * <ul>
 *   <li>mean = mean seek + half a revolution + mean transfer. The mean seek is the seek curve
 *       averaged over the distance of two uniform points (density {@code 2(C - d) / C^2}),
 *       computed once; for the paper's disk it is 8.49 ms, a little under the seek at the mean
 *       distance {@code C/3} (8.57 ms) because the curve is concave. The rotational delay of a
 *       random read is uniform over a revolution: half of one on average.</li>
 *   <li>min (worst) = full-stroke seek + a full revolution + transfer in the slowest zone: the
 *       bound the scheduler itself estimates a request with (papers/001 Figure 6) when it knows
 *       neither the head's position nor the rotation.</li>
 * </ul>
 *
 * <p><b>Equations 1-3.</b> With {@code t(s) = T_access + s / R} (Equation 1's model: utilization
 * {@code U = T_transfer / (N T_access + T_transfer)}) the profile's throughput is
 * {@code P(s) = s / t(s)}. Equation 3, {@code P(S_avg) > sum BR}, with Equation 2's
 * {@code S_avg = T sum BR / (N + 1)}, is the same as {@code (N + 1) t(S_avg) < T}: the round's
 * IOs, each of the average size, fit the round. {@link AdmissionController} sums each stream's
 * own {@code t(s_i)} instead, which equals {@code (N + 1) t(S_avg)} when {@code t} is affine and
 * follows the curve's bend when it is not; and it keeps a share of {@code T} for D-requests.
 */
public final class ThroughputModel {

    private static final double NS_PER_MS = 1e6;
    /** Bytes in a MiB: byte rates are printed in MiB/s. */
    private static final double MIB = 1 << 20;
    /** Positions sampled to average a model's transfer rate and seek over the disk. */
    private static final int SAMPLES = 4096;
    /** A transfer long enough that rounding to whole nanoseconds does not show in a rate. */
    private static final long REFERENCE_BYTES = 1L << 30;

    /**
     * How many standard deviations above its mean a round is charged under {@link #roundNs}: a
     * normal round passes its mean by 4.5 sigma once in about 300,000 rounds, and then runs into
     * the D-reserve, not past its deadline.
     */
    public static final double ROUND_SIGMAS = 4.5;

    private final String name;
    private final DiskModel disk;
    private final List<DiskProfile.MeasuredRow> rows;
    private final double meanAccessNs;
    private final double worstAccessNs;
    private final double meanNsPerByte;
    private final double worstNsPerByte;
    private final double fastestNsPerByte;

    private ThroughputModel(String name, DiskModel disk, List<DiskProfile.MeasuredRow> rows, double meanAccessNs,
                            double worstAccessNs, double meanNsPerByte, double worstNsPerByte,
                            double fastestNsPerByte) {
        this.name = name;
        this.disk = disk;
        this.rows = rows;
        this.meanAccessNs = meanAccessNs;
        this.worstAccessNs = worstAccessNs;
        this.meanNsPerByte = meanNsPerByte;
        this.worstNsPerByte = worstNsPerByte;
        this.fastestNsPerByte = fastestNsPerByte;
    }

    /** The curves of a disk: measured if its profile holds measurements, else modelled. */
    public static ThroughputModel of(DiskModel disk) {
        if (disk instanceof DiskProfile profile && !profile.measuredRows().isEmpty()) {
            return measured(profile);
        }
        return modelled(disk);
    }

    /**
     * The curves a write is charged on (a recording's fragment, written and made durable): the
     * profile's measured write curve ({@link DiskProfile#writeCurve()}), interpolated between its
     * rows and its fitted line outside them as the read curves are; the read curves of
     * {@link #of} where the profile has none (a profile measured before writes were timed, a
     * modelled disk).
     */
    public static ThroughputModel ofWrites(DiskModel disk) {
        if (disk instanceof DiskProfile profile && profile.writeCurve().isPresent()) {
            DiskProfile.WriteCurve curve = profile.writeCurve().get();
            double nsPerByte = 1e9 / curve.transferBytesPerSecond();
            return new ThroughputModel(profile.name() + " writes", profile, curve.rows(), curve.accessMs() * NS_PER_MS,
                curve.accessMaxMs() * NS_PER_MS, nsPerByte, nsPerByte, nsPerByte);
        }
        return of(disk);
    }

    private static ThroughputModel measured(DiskProfile profile) {
        // The profiler's model: any move costs a (flat seek curve), a revolution is a_max - a, one zone at R.
        double accessNs = profile.maxSeekNs();
        double nsPerByte = nsPerByte(profile, 0);
        double fastest = nsPerByte;
        for (DiskProfile.MeasuredRow row : profile.measuredRows()) {
            if (row.maxMBps() > 0) {
                fastest = Math.min(fastest, 1e3 / row.maxMBps());
            }
        }
        return new ThroughputModel(profile.name(), profile, profile.measuredRows(), accessNs,
            accessNs + profile.worstCaseRotationNs(), nsPerByte, nsPerByte, fastest);
    }

    private static ThroughputModel modelled(DiskModel disk) {
        long capacity = disk.capacityBytes();
        double meanNsPerByte = 0;
        double worstNsPerByte = 0;
        double fastestNsPerByte = Double.MAX_VALUE;
        for (int i = 0; i < SAMPLES; i++) {
            double rate = nsPerByte(disk, (long) ((i + 0.5) * capacity / SAMPLES));
            meanNsPerByte += rate / SAMPLES;
            worstNsPerByte = Math.max(worstNsPerByte, rate);
            fastestNsPerByte = Math.min(fastestNsPerByte, rate);
        }
        double meanAccessNs = meanSeekNs(disk) + disk.worstCaseRotationNs() / 2.0;
        double worstAccessNs = disk.maxSeekNs() + disk.worstCaseRotationNs();
        return new ThroughputModel(disk.toString(), disk, List.of(), meanAccessNs, worstAccessNs, meanNsPerByte,
            worstNsPerByte, fastestNsPerByte);
    }

    /**
     * The mean seek between two uniformly random positions. For a profile, exactly over its
     * cylinders: distance 0 with probability {@code 1/C}, {@code d > 0} with {@code 2(C - d)/C^2}.
     * For any other model, the same density over byte distances, by the midpoint rule.
     */
    static double meanSeekNs(DiskModel disk) {
        double sum = 0;
        if (disk instanceof DiskProfile profile) {
            double c = profile.cylinders();
            for (int d = 1; d < profile.cylinders(); d++) {
                sum += 2 * (c - d) / (c * c) * profile.seekNs(0, profile.positionOfCylinder(d));
            }
            return sum;
        }
        double capacity = disk.capacityBytes();
        double step = capacity / SAMPLES;
        for (int i = 0; i < SAMPLES; i++) {
            double distance = (i + 0.5) * step;
            sum += 2 * (capacity - distance) / (capacity * capacity) * step * disk.seekNs(0, (long) distance);
        }
        return sum;
    }

    private static double nsPerByte(DiskModel disk, long position) {
        return (double) disk.transferNs(position, REFERENCE_BYTES) / REFERENCE_BYTES;
    }

    /** True if the curves come from measurements, false if from the disk's model. */
    public boolean measured() {
        return !rows.isEmpty();
    }

    /** The time one IO of {@code ioBytes} takes on the min curve: the slowest reads. */
    public long minCurveNs(long ioBytes) {
        return ioNs(ioBytes, true);
    }

    /** The time one IO of {@code ioBytes} takes on the mean curve: the average read. */
    public long meanCurveNs(long ioBytes) {
        return ioNs(ioBytes, false);
    }

    /**
     * The least time one read of {@code ioBytes} takes, on the fastest curve: the fastest read the
     * profile measured of that size (its max curve; a size under its least is taken at its least,
     * since a direct read reads whole blocks), or, for a modelled disk or a size past what the
     * profile measured, the transfer alone in the disk's fastest zone with no access at all. No
     * read of that size is faster, so it bounds how many reads a disk completes in a given time.
     */
    public long fastestNs(long ioBytes) {
        if (ioBytes <= 0) {
            return 0;
        }
        if (!rows.isEmpty() && ioBytes <= rows.get(rows.size() - 1).ioBytes()) {
            int upper = 0;
            while (rows.get(upper).ioBytes() < ioBytes) {
                upper++;
            }
            double fastestMBps = rows.get(upper).maxMBps();
            if (upper > 0) {
                fastestMBps = Math.max(fastestMBps, rows.get(upper - 1).maxMBps());
            }
            if (fastestMBps > 0) {
                return Math.max(1, (long) Math.floor(ioBytes * 1e3 / fastestMBps));
            }
        }
        return Math.max(1, (long) Math.floor(ioBytes * fastestNsPerByte));
    }

    /** The time one IO of {@code ioBytes} is charged under {@code policy}'s curve. */
    public long ioNs(AdmissionPolicy policy, long ioBytes) {
        return ioNs(ioBytes, policy.usesMinCurve());
    }

    /**
     * The time one round of {@code ios} fragments takes in SCAN order, charged at
     * {@link #ROUND_SIGMAS} standard deviations above its mean (Rondo's ADM2): the streams'
     * fragments summed per round, rather than each stream's IO time summed.
     *
     * <ul>
     *   <li>Seeks: the scheduler reads a round's C-requests in one sweep (papers/001 Section
     *       4), so {@code ios} seeks share one stroke of the disk; the seek curve being concave,
     *       they take at most {@code ios * seek(C / ios)}.</li>
     *   <li>Rotational delays: uniform over a revolution and independent, mean half a revolution
     *       each and variance {@code rev^2 / 12}; never more than a revolution each.</li>
     *   <li>Transfer: the bytes the round reads, {@code bytes} on average with variance
     *       {@code varianceBytes2} (the sum of the streams' fragment variances), at the disk's mean
     *       rate; never more than {@code peakBytes}, every stream's largest fragment at once.</li>
     * </ul>
     *
     * The rotations and the transfer are charged together at their mean plus
     * {@link #ROUND_SIGMAS} times the deviation of their sum, each capped at its worst case.
     */
    public long roundNs(int ios, double bytes, double varianceBytes2, double peakBytes) {
        if (ios <= 0) {
            return 0;
        }
        double seekNs = ios * (double) disk.seekNs(0, disk.capacityBytes() / ios);
        double revolutionNs = disk.worstCaseRotationNs();
        double rotationMeanNs = ios * revolutionNs / 2;
        double rotationVariance = ios * revolutionNs * revolutionNs / 12;
        double transferMeanNs = bytes * meanNsPerByte;
        double transferVariance = varianceBytes2 * meanNsPerByte * meanNsPerByte;
        double marginNs = ROUND_SIGMAS * Math.sqrt(rotationVariance + transferVariance);
        double worstNs = ios * revolutionNs + Math.max(bytes, peakBytes) * meanNsPerByte;
        return (long) Math.ceil(seekNs + Math.min(worstNs, rotationMeanNs + transferMeanNs + marginNs));
    }

    /** The throughput of IOs of {@code ioBytes} on one curve, in MB/s (10^6 bytes a second): Figure 3's axes. */
    public double throughputMBps(long ioBytes, boolean minCurve) {
        return ioBytes * 1e3 / ioNs(ioBytes, minCurve);
    }

    private long ioNs(long ioBytes, boolean minCurve) {
        if (ioBytes < 0) {
            throw new IllegalArgumentException("an IO size must not be negative, was " + ioBytes);
        }
        if (ioBytes == 0) {
            return 0;
        }
        if (!rows.isEmpty() && ioBytes >= rows.get(0).ioBytes() && ioBytes <= rows.get(rows.size() - 1).ioBytes()) {
            return (long) Math.ceil(ioBytes * 1e3 / interpolatedMBps(ioBytes, minCurve));
        }
        return minCurve
            ? (long) Math.ceil(worstAccessNs + ioBytes * worstNsPerByte)
            : (long) Math.ceil(meanAccessNs + ioBytes * meanNsPerByte);
    }

    private double interpolatedMBps(long ioBytes, boolean minCurve) {
        int upper = 0;
        while (rows.get(upper).ioBytes() < ioBytes) {
            upper++;
        }
        DiskProfile.MeasuredRow high = rows.get(upper);
        if (high.ioBytes() == ioBytes || upper == 0) {
            return mbps(high, minCurve);
        }
        DiskProfile.MeasuredRow low = rows.get(upper - 1);
        double f = Math.log((double) ioBytes / low.ioBytes()) / Math.log((double) high.ioBytes() / low.ioBytes());
        return mbps(low, minCurve) + f * (mbps(high, minCurve) - mbps(low, minCurve));
    }

    private static double mbps(DiskProfile.MeasuredRow row, boolean minCurve) {
        return minCurve ? row.minMBps() : row.meanMBps();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (%s): mean access %.3f ms, worst access %.3f ms, %.2f MiB/s mean, "
                + "%.2f MiB/s slowest zone", name, measured() ? "measured curves" : "modelled curves",
            meanAccessNs / NS_PER_MS, worstAccessNs / NS_PER_MS, 1e9 / meanNsPerByte / MIB, 1e9 / worstNsPerByte / MIB);
    }
}

package io.rondo.scheduler.admission;

import java.util.Locale;

/**
 * XTREAM's three admission policies (papers/000 Sections 2.3 and 3.3, Table 1): which curve of
 * the disk profile a fragment's IO time is read from, and which fragment size is charged.
 *
 * <p>The min curve is the throughput of the slowest read of each size, so an IO time read from
 * it bounds (nearly) every read; the mean curve is the average read's. Charging the peak
 * fragment guards a variable-bit-rate stream's largest rounds; charging the average one lets
 * the streams' large and small rounds even out, which is why Table 1 shows ADM3 admitting the
 * most VBR streams and the least margin.
 *
 * <p>ADM1 and ADM3 are the paper's. Rondo's ADM2 is not: XTREAM's Adm2 (mean curve, every stream
 * charged the IO time of its peak fragment) admitted 0.52 to 0.98 of what the disk could carry
 * in the paper's Table 1, and on papers/001's disk 0.59 of it for VBR streams of 250 kB/s, because
 * it charges every stream a random seek and its largest fragment in every round. Rondo's ADM2
 * charges each disk's round as a whole ({@link ThroughputModel#roundNs}): the seeks of one SCAN
 * sweep over all the round's fragments, the rotational delays and the bytes of the fragments
 * summed, at their mean plus {@link ThroughputModel#ROUND_SIGMAS} standard deviations, each part
 * capped at its worst case; or at XTREAM's Adm2 charge where that is less, so it admits whatever
 * XTREAM's Adm2 would (which missed no deadline in any row of the benchmark). It is still the
 * mean curve's model (mean seek, rotation and transfer), with a margin for the round's sum rather
 * than for each stream alone. docs/bench-table1.md measures all three against MaxN.
 */
public enum AdmissionPolicy {

    /** Conservative: the min (slowest-read) curve and peak fragments. */
    ADM1(true, true),
    /**
     * Aggressive, and Rondo's default: the mean curve for a whole round, its fragments in one SCAN
     * sweep, charged at their mean plus a margin for the round's spread (never past their peaks).
     */
    ADM2(false, true),
    /** Most aggressive: the mean curve and average fragments. */
    ADM3(false, false);

    /** The policy used unless configured otherwise. */
    public static final AdmissionPolicy DEFAULT = ADM2;

    private final boolean minCurve;
    private final boolean peakFragments;

    AdmissionPolicy(boolean minCurve, boolean peakFragments) {
        this.minCurve = minCurve;
        this.peakFragments = peakFragments;
    }

    /** {@code adm1}, {@code adm2} or {@code adm3}, in any case. */
    public static AdmissionPolicy parse(String text) {
        if (text != null) {
            for (AdmissionPolicy policy : values()) {
                if (policy.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                    return policy;
                }
            }
        }
        throw new IllegalArgumentException("unknown admission policy '" + text + "'; choose adm1 (min curve, peak "
            + "rates), adm2 (mean curve, whole rounds) or adm3 (mean curve, average rates)");
    }

    /** True if IO times come from the min curve (the slowest reads), false for the mean curve. */
    public boolean usesMinCurve() {
        return minCurve;
    }

    /** True if a stream is charged its peak fragment, false for its average one. */
    public boolean usesPeakFragments() {
        return peakFragments;
    }

    /**
     * True if a disk's round is charged as a whole ({@link ThroughputModel#roundNs}: ADM2), false
     * if as the sum of each stream's IO time (ADM1, ADM3).
     */
    public boolean chargesWholeRounds() {
        return this == ADM2;
    }

    /** The fragment size this policy charges for a stream's demand on one disk (buffers and network). */
    public long chargedBytes(DiskDemand demand) {
        return peakFragments ? demand.peakBytesPerRound() : demand.averageBytesPerRound();
    }

    /** {@code adm1}, {@code adm2} or {@code adm3}: the name configuration files use. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }
}

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
 */
public enum AdmissionPolicy {

    /** Conservative: the min (slowest-read) curve and peak fragments. */
    ADM1(true, true),
    /** Aggressive: the mean curve and peak fragments; Rondo's default. */
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
            + "rates), adm2 (mean curve, peak rates) or adm3 (mean curve, average rates)");
    }

    /** True if IO times come from the min curve (the slowest reads), false for the mean curve. */
    public boolean usesMinCurve() {
        return minCurve;
    }

    /** True if a stream is charged its peak fragment, false for its average one. */
    public boolean usesPeakFragments() {
        return peakFragments;
    }

    /** The fragment size this policy charges for a stream's demand on one disk. */
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

package io.rondo.scheduler.sim.cycle;

import java.util.SplittableRandom;

/**
 * How stream rates are drawn: {@code min + (max - min) u^p} for a uniform {@code u}, the exponent
 * {@code p} moving geometrically from {@code startExponent} to {@code endExponent} over the run.
 * An exponent of 1 is uniform; above 1 favours low rates, below 1 high rates; so a mix that starts
 * above 1 and ends below shifts from low to high rates (papers/003 Figure 5b, workload 6).
 *
 * @param minBitsPerSecond the lowest rate
 * @param maxBitsPerSecond the highest rate
 * @param startExponent    {@code p} at the run's start
 * @param endExponent      {@code p} at its end
 */
public record RateMix(long minBitsPerSecond, long maxBitsPerSecond, double startExponent, double endExponent) {

    public RateMix {
        if (minBitsPerSecond < 8 || maxBitsPerSecond < minBitsPerSecond) {
            throw new IllegalArgumentException("rates must satisfy 8 <= min <= max bit/s, were " + minBitsPerSecond
                + " and " + maxBitsPerSecond);
        }
        if (!(startExponent > 0 && endExponent > 0)) {
            throw new IllegalArgumentException("the exponents must be positive, were " + startExponent + " and "
                + endExponent);
        }
    }

    /** Uniform between two rates. */
    public static RateMix uniform(long minBitsPerSecond, long maxBitsPerSecond) {
        return new RateMix(minBitsPerSecond, maxBitsPerSecond, 1, 1);
    }

    /** A rate in bytes a second, at {@code fraction} of the run (0 to 1). */
    public long sampleBytesPerSecond(SplittableRandom random, double fraction) {
        double exponent = startExponent * Math.pow(endExponent / startExponent, Math.min(1, Math.max(0, fraction)));
        double spread = maxBitsPerSecond - minBitsPerSecond;
        double bits = minBitsPerSecond + spread * Math.pow(random.nextDouble(), exponent);
        return Math.max(1, Math.round(bits / 8));
    }

    /** The mean rate in bytes a second over the whole run, for a cycle chosen with prior knowledge. */
    public double meanBytesPerSecond() {
        double sum = 0;
        int steps = 64;
        for (int i = 0; i < steps; i++) {
            double fraction = (i + 0.5) / steps;
            double exponent = startExponent * Math.pow(endExponent / startExponent, fraction);
            sum += minBitsPerSecond + (maxBitsPerSecond - minBitsPerSecond) / (exponent + 1);
        }
        return sum / steps / 8;
    }

    @Override
    public String toString() {
        String shape = startExponent == endExponent
            ? (startExponent == 1 ? "uniform" : startExponent > 1 ? "favouring low" : "favouring high")
            : "shifting " + (startExponent > endExponent ? "low to high" : "high to low");
        return String.format(java.util.Locale.ROOT, "%d-%d kbit/s %s", minBitsPerSecond / 1000,
            maxBitsPerSecond / 1000, shape);
    }
}

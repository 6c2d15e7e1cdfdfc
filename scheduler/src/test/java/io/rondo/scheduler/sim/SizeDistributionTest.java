package io.rondo.scheduler.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Request sizes of papers/001 Tables 2 and 3: moments on target, sizes always positive, one seed one sequence. */
class SizeDistributionTest {

    private static final int DRAWS = 200_000;
    private static final double TOLERANCE = 0.02;

    /** Mean and standard deviation of {@link #DRAWS} samples, and the smallest. */
    private record Moments(double mean, double sd, long min) {
    }

    private static Moments sample(SizeDistribution distribution, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double sum = 0;
        double sumOfSquares = 0;
        long min = Long.MAX_VALUE;
        for (int i = 0; i < DRAWS; i++) {
            long size = distribution.sample(random);
            sum += size;
            sumOfSquares += (double) size * size;
            min = Math.min(min, size);
        }
        double mean = sum / DRAWS;
        return new Moments(mean, Math.sqrt(sumOfSquares / DRAWS - mean * mean), min);
    }

    private static void assertNear(double expected, double actual, String what) {
        assertEquals(expected, actual, TOLERANCE * expected, what + ": expected " + expected + ", was " + actual);
    }

    /** Table 2's C-request sizes: Gamma, mean 800000 B, sd 200000 B. */
    @Test
    void gammaHitsItsMeanAndDeviation() {
        Moments moments = sample(Workload.PAPER_CONTINUOUS, 1);

        assertNear(800_000, moments.mean(), "mean");
        assertNear(200_000, moments.sd(), "sd");
    }

    /** A coefficient of variation above 1 takes the shape-below-1 branch of the sampler. */
    @Test
    void gammaWithAShapeBelowOneHitsItsMeanAndDeviation() {
        Moments moments = sample(SizeDistribution.gamma(100_000, 200_000), 2);

        assertNear(100_000, moments.mean(), "mean");
        assertNear(200_000, moments.sd(), "sd");
        assertTrue(moments.min() >= 1);
    }

    @Test
    void gammaWithoutDeviationGivesTheMeanEveryTime() {
        Moments moments = sample(SizeDistribution.gamma(4_096, 0), 3);

        assertEquals(4_096, moments.mean());
        assertEquals(0, moments.sd());
    }

    /** A normal far from 0 (mean 5 sd above it) is not visibly truncated. */
    @Test
    void normalHitsItsMeanAndDeviation() {
        Moments moments = sample(SizeDistribution.normal(10_000, 2_000), 4);

        assertNear(10_000, moments.mean(), "mean");
        assertNear(2_000, moments.sd(), "sd");
    }

    /**
     * Table 2's D-request sizes, Normal(50000, 25000), lose the 2.3% of draws below 1 byte: the
     * target is the truncated normal's moments, mean 51381 B and sd about 23540 B.
     */
    @Test
    void paperDiscreteSizesHitTheTruncatedNormalsMoments() {
        double alpha = (0.5 - 50_000) / 25_000.0;
        double density = Math.exp(-alpha * alpha / 2) / Math.sqrt(2 * Math.PI);
        double kept = 1 - standardNormalCdf(alpha);
        double hazard = density / kept;
        double truncatedMean = 50_000 + 25_000 * hazard;
        double truncatedSd = 25_000 * Math.sqrt(1 + alpha * hazard - hazard * hazard);
        Moments moments = sample(Workload.PAPER_DISCRETE, 5);

        assertEquals(51_381, truncatedMean, 1, "the target itself");
        assertNear(truncatedMean, moments.mean(), "mean");
        assertNear(truncatedSd, moments.sd(), "sd");
        assertTrue(moments.min() >= 1);
    }

    /** A normal mostly below 1 byte is redrawn, never clipped to 0 or below. */
    @Test
    void normalNeverReturnsLessThanOneByte() {
        assertTrue(sample(SizeDistribution.normal(5, 10), 6).min() >= 1);
        assertTrue(sample(Workload.PAPER_SMALL_DISCRETE, 7).min() >= 1);
    }

    @Test
    void oneSeedGivesOneSequence() {
        SplittableRandom first = new SplittableRandom(42);
        SplittableRandom second = new SplittableRandom(42);
        for (int i = 0; i < 1_000; i++) {
            assertEquals(Workload.PAPER_CONTINUOUS.sample(first), Workload.PAPER_CONTINUOUS.sample(second));
            assertEquals(Workload.PAPER_DISCRETE.sample(first), Workload.PAPER_DISCRETE.sample(second));
        }
    }

    @Test
    void ofParsesTheKindAndRefusesOthers() {
        assertEquals(SizeDistribution.gamma(10, 2), SizeDistribution.of("Gamma", 10, 2));
        assertEquals(SizeDistribution.normal(10, 2), SizeDistribution.of("normal", 10, 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> SizeDistribution.of("weibull", 10, 2));
        assertTrue(e.getMessage().contains("choose gamma or normal"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SizeDistribution.normal(0.5, 1));
        assertThrows(IllegalArgumentException.class, () -> SizeDistribution.gamma(10, -1));
        assertThrows(IllegalArgumentException.class, () -> SizeDistribution.gamma(Double.NaN, 1));
        assertEquals("normal(50000, 25000)", Workload.PAPER_DISCRETE.toString());
    }

    /** The standard normal distribution function, by Simpson's rule from -12: ample for a test's target. */
    private static double standardNormalCdf(double x) {
        int steps = 20_000;
        double from = -12;
        double h = (x - from) / steps;
        double sum = 0;
        for (int i = 0; i <= steps; i++) {
            double t = from + i * h;
            double weight = i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2;
            sum += weight * Math.exp(-t * t / 2);
        }
        return sum * h / 3 / Math.sqrt(2 * Math.PI);
    }
}

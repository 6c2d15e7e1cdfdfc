package io.rondo.scheduler.sim;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Request sizes in bytes, as papers/001 Tables 2 and 3 give them: Gamma for C-requests, Normal
 * (truncated to positive sizes) or Gamma for D-requests. The samplers are written out here, not
 * taken from the JDK, so that one seed gives the same sizes on every JDK.
 */
public sealed interface SizeDistribution {

    /** A size in bytes, at least 1. */
    long sample(SplittableRandom random);

    double meanBytes();

    double sdBytes();

    /** Gamma with the given mean and standard deviation. */
    static SizeDistribution gamma(double meanBytes, double sdBytes) {
        return new Gamma(meanBytes, sdBytes);
    }

    /** Normal with the given mean and standard deviation, redrawn until positive. */
    static SizeDistribution normal(double meanBytes, double sdBytes) {
        return new Normal(meanBytes, sdBytes);
    }

    /** {@code gamma} or {@code normal}, by name. */
    static SizeDistribution of(String kind, double meanBytes, double sdBytes) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "gamma" -> gamma(meanBytes, sdBytes);
            case "normal" -> normal(meanBytes, sdBytes);
            default -> throw new IllegalArgumentException("unknown size distribution '" + kind
                + "'; choose gamma or normal");
        };
    }

    private static void check(double meanBytes, double sdBytes) {
        if (!(meanBytes >= 1)) {
            throw new IllegalArgumentException("a mean size must be at least 1 byte, was " + meanBytes);
        }
        if (!(sdBytes >= 0)) {
            throw new IllegalArgumentException("a standard deviation must not be negative, was " + sdBytes);
        }
    }

    /** Marsaglia's polar method. */
    private static double standardNormal(SplittableRandom random) {
        while (true) {
            double u = 2 * random.nextDouble() - 1;
            double v = 2 * random.nextDouble() - 1;
            double s = u * u + v * v;
            if (s > 0 && s < 1) {
                return u * Math.sqrt(-2 * Math.log(s) / s);
            }
        }
    }

    /** Normal sizes, truncated to positive ones. */
    record Normal(double meanBytes, double sdBytes) implements SizeDistribution {
        public Normal {
            check(meanBytes, sdBytes);
        }

        @Override
        public long sample(SplittableRandom random) {
            while (true) {
                long size = Math.round(meanBytes + sdBytes * standardNormal(random));
                if (size >= 1) {
                    return size;
                }
            }
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "normal(%.0f, %.0f)", meanBytes, sdBytes);
        }
    }

    /** Gamma sizes by Marsaglia and Tsang's method; a zero deviation gives the mean every time. */
    record Gamma(double meanBytes, double sdBytes) implements SizeDistribution {
        public Gamma {
            check(meanBytes, sdBytes);
        }

        @Override
        public long sample(SplittableRandom random) {
            if (sdBytes == 0) {
                return Math.round(meanBytes);
            }
            double shape = (meanBytes / sdBytes) * (meanBytes / sdBytes);
            double scale = sdBytes * sdBytes / meanBytes;
            return Math.max(1, Math.round(standardGamma(random, shape) * scale));
        }

        private static double standardGamma(SplittableRandom random, double shape) {
            if (shape < 1) {
                return standardGamma(random, shape + 1) * Math.pow(random.nextDouble(), 1 / shape);
            }
            double d = shape - 1.0 / 3;
            double c = 1 / Math.sqrt(9 * d);
            while (true) {
                double x = standardNormal(random);
                double v = 1 + c * x;
                if (v <= 0) {
                    continue;
                }
                v = v * v * v;
                double u = random.nextDouble();
                if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
                    return d * v;
                }
            }
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "gamma(%.0f, %.0f)", meanBytes, sdBytes);
        }
    }
}

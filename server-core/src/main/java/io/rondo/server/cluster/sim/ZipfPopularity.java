package io.rondo.server.cluster.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Which object a new stream asks for: object {@code k} (0 = the most popular) with probability
 * proportional to {@code 1 / (k + 1)^s}, the Zipf law video libraries are usually modelled by
 * (s about 0.8 for a library of films, 1 for a web cache).
 */
final class ZipfPopularity {

    private final double[] cumulative;

    ZipfPopularity(int objects, double exponent) {
        if (objects < 1) {
            throw new IllegalArgumentException("a library needs at least one object, was " + objects);
        }
        if (!(exponent >= 0)) {
            throw new IllegalArgumentException("the Zipf exponent must not be negative, was " + exponent);
        }
        cumulative = new double[objects];
        double sum = 0;
        for (int k = 0; k < objects; k++) {
            sum += Math.pow(k + 1, -exponent);
            cumulative[k] = sum;
        }
        for (int k = 0; k < objects; k++) {
            cumulative[k] /= sum;
        }
    }

    /** One draw. */
    int sample(SplittableRandom random) {
        int at = Arrays.binarySearch(cumulative, random.nextDouble());
        int k = at >= 0 ? at : -at - 1;
        return Math.min(k, cumulative.length - 1);
    }
}

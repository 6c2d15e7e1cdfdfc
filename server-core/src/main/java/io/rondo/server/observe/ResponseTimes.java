package io.rondo.server.observe;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * The response times of D-requests, arrival to completion, in milliseconds, to three significant
 * digits; NaN where none was recorded.
 */
public record ResponseTimes(long count, double meanMs, double p95Ms, double p99Ms, double maxMs) {

    /** The summary of {@code histogram} (nanoseconds); no histogram or an empty one has count 0. */
    public static ResponseTimes of(Histogram histogram) {
        if (histogram == null || histogram.getTotalCount() == 0) {
            return new ResponseTimes(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double nsPerMs = TimeUnit.MILLISECONDS.toNanos(1);
        return new ResponseTimes(histogram.getTotalCount(), histogram.getMean() / nsPerMs,
            histogram.getValueAtPercentile(95) / nsPerMs, histogram.getValueAtPercentile(99) / nsPerMs,
            histogram.getMaxValue() / nsPerMs);
    }
}

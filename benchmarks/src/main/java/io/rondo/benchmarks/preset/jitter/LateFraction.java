package io.rondo.benchmarks.preset.jitter;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * papers/002 Figure 14's "cumulative proportional" reading of a set of delays: for a delay x, the
 * fraction of requests that took longer than x. Plotted log-log, a steep part is a cluster of
 * delays and the tail is the rare long wait that a player hears as a glitch. Read from an
 * HdrHistogram, so x is exact to its three significant digits.
 */
public final class LateFraction {

    /** One point of the curve: the fraction of requests later than {@code xNs}. */
    public record Point(long xNs, double fraction) {
    }

    private LateFraction() {
    }

    /**
     * The fraction of the recorded values strictly greater than {@code xNs}.
     *
     * @return 0 to 1; 0 for an empty histogram
     */
    public static double laterThan(Histogram delays, long xNs) {
        long total = delays.getTotalCount();
        if (total == 0) {
            return 0;
        }
        long atOrBelow = xNs < 0 ? 0 : delays.getCountBetweenValues(0, xNs);
        return (double) (total - atOrBelow) / total;
    }

    /**
     * The curve on a logarithmic grid of x, {@code perDecade} points a decade from {@code fromNs}
     * to the largest value recorded; it stops before the first point whose fraction is 0, which a
     * log axis has no place for.
     *
     * @param fromNs the smallest x, above 0
     * @param perDecade points per power of ten, at least 1
     */
    public static List<Point> curve(Histogram delays, long fromNs, int perDecade) {
        if (fromNs <= 0 || perDecade < 1) {
            throw new IllegalArgumentException("the curve starts above 0 with at least one point a decade");
        }
        List<Point> points = new ArrayList<>();
        if (delays.getTotalCount() == 0) {
            return points;
        }
        long maxNs = delays.getMaxValue();
        double step = Math.pow(10, 1.0 / perDecade);
        for (int i = 0;; i++) {
            long xNs = Math.round(fromNs * Math.pow(step, i));
            double fraction = laterThan(delays, xNs);
            if (fraction <= 0 || xNs > maxNs) {
                break;
            }
            points.add(new Point(xNs, fraction));
        }
        return points;
    }
}

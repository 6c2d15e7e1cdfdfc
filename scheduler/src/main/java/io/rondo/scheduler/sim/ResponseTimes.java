package io.rondo.scheduler.sim;

import java.util.Arrays;

/** D-request response times in nanoseconds: a growable array, sorted once for percentiles. Not thread-safe. */
public final class ResponseTimes {

    private long[] values = new long[1024];
    private int count;
    private long sumNs;
    private boolean sorted = true;

    public void add(long responseNs) {
        if (count == values.length) {
            values = Arrays.copyOf(values, count * 2);
        }
        values[count++] = responseNs;
        sumNs += responseNs;
        sorted = false;
    }

    public void addAll(ResponseTimes other) {
        for (int i = 0; i < other.count; i++) {
            add(other.values[i]);
        }
    }

    public int count() {
        return count;
    }

    public double meanNs() {
        return count == 0 ? Double.NaN : (double) sumNs / count;
    }

    /** The nearest-rank percentile, {@code fraction} in (0, 1]; NaN when empty. */
    public double percentileNs(double fraction) {
        if (count == 0) {
            return Double.NaN;
        }
        if (!sorted) {
            Arrays.sort(values, 0, count);
            sorted = true;
        }
        int rank = (int) Math.ceil(fraction * count);
        return values[Math.min(Math.max(rank, 1), count) - 1];
    }

    public double maxNs() {
        return percentileNs(1.0);
    }
}

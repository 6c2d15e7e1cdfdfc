package io.rondo.scheduler.device;

import java.io.IOException;
import java.util.List;

/**
 * The model a profile fits to its reads (papers/000 Section 2.3, Equation 1): the service time
 * {@code t(s) = a + s / R}, {@code a} the access penalty of any IO, {@code R} the transfer rate;
 * and the rows that show each IO size's reads beside it.
 */
final class ServiceTimeFit {

    private ServiceTimeFit() {
    }

    /**
     * {@code t(s) = a + s / R} by least squares on the mean times, each weighted by the inverse
     * of its square: relative errors count, so the small IOs, where {@code a} shows, weigh as much
     * as the large ones, whose absolute noise would otherwise swamp it. {@code a_max} is the
     * smallest access time that, with the same {@code R}, bounds the slowest read of every size.
     */
    static DiskProfiler.Fit fit(List<Sample> samples) throws IOException {
        if (samples.size() < 2) {
            throw new IllegalArgumentException("a line needs two IO sizes at least, got " + samples.size());
        }
        double sw = 0;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (Sample sample : samples) {
            double x = sample.size;
            double y = sample.meanNs();
            double w = 1 / (y * y);
            sw += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
        }
        double determinant = sw * sxx - sx * sx;
        double nsPerByte = (sw * sxy - sx * sy) / determinant;
        double accessNs = (sxx * sy - sx * sxy) / determinant;
        if (!(nsPerByte > 0)) {
            throw new IOException("cannot fit t(s) = a + s/R: the measured times do not grow with the IO size "
                + "(is something caching the reads?)");
        }
        return withRate(samples, Math.max(accessNs, 0), nsPerByte);
    }

    /**
     * The model of IOs whose times do not grow with their size, as writes that each wait for a
     * {@code fdatasync} may not on a device with a write cache: the transfer rate {@code
     * bytesPerSecond} another fit found (the reads'), and the access time that, at that rate, the
     * mean IO of each size takes at the most; its slowest IO bounds the worst.
     */
    static DiskProfiler.Fit fitAtRate(List<Sample> samples, double bytesPerSecond) {
        double nsPerByte = 1e9 / bytesPerSecond;
        double accessNs = 0;
        for (Sample sample : samples) {
            accessNs = Math.max(accessNs, sample.meanNs() - sample.size * nsPerByte);
        }
        return withRate(samples, accessNs, nsPerByte);
    }

    private static DiskProfiler.Fit withRate(List<Sample> samples, double accessNs, double nsPerByte) {
        double accessMaxNs = accessNs;
        for (Sample sample : samples) {
            accessMaxNs = Math.max(accessMaxNs, sample.maxNs() - sample.size * nsPerByte);
        }
        return new DiskProfiler.Fit(accessNs / 1e6, accessMaxNs / 1e6, 1e9 / nsPerByte);
    }

    /** The times of one IO size, in nanoseconds. */
    record Sample(int size, int reads, long[] times) {

        double meanNs() {
            long sum = 0;
            for (int i = 0; i < reads; i++) {
                sum += times[i];
            }
            return (double) sum / reads;
        }

        long minNs() {
            long min = Long.MAX_VALUE;
            for (int i = 0; i < reads; i++) {
                min = Math.min(min, times[i]);
            }
            return min;
        }

        long maxNs() {
            long max = 0;
            for (int i = 0; i < reads; i++) {
                max = Math.max(max, times[i]);
            }
            return max;
        }

        DiskProfiler.Row row(DiskProfiler.Fit fit) {
            double transferMs = size / fit.transferBytesPerSecond() * 1e3;
            double meanMs = meanNs() / 1e6;
            double maxMs = maxNs() / 1e6;
            return new DiskProfiler.Row(size, reads, size * 1e3 / maxNs(), size * 1e3 / meanNs(), size * 1e3 / minNs(),
                meanMs, maxMs, meanMs - transferMs, maxMs - transferMs);
        }
    }
}

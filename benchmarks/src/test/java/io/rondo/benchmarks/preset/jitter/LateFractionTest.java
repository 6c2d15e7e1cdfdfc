package io.rondo.benchmarks.preset.jitter;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LateFractionTest {

    private static Histogram of(long... values) {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void countsTheRequestsStrictlyLaterThanX() {
        Histogram h = of(1_000, 2_000, 3_000, 4_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000,
            300_000_000);
        assertEquals(1.0, LateFraction.laterThan(h, 0));
        assertEquals(0.9, LateFraction.laterThan(h, 1_000), 1e-12);
        assertEquals(0.6, LateFraction.laterThan(h, 4_000), 1e-12);
        assertEquals(0.1, LateFraction.laterThan(h, 1_000_000), 1e-12);
        assertEquals(0.1, LateFraction.laterThan(h, 5_000_000), 1e-12);
        assertEquals(0.0, LateFraction.laterThan(h, 400_000_000), 1e-12);
        assertEquals(0.0, LateFraction.laterThan(new Histogram(3), 1));
    }

    @Test
    void theCurveFallsOnALogGridAndStopsBeforeZero() {
        Histogram h = of(20_000, 200_000, 2_000_000, 20_000_000);
        List<LateFraction.Point> curve = LateFraction.curve(h, 10_000, 1);
        assertEquals(List.of(new LateFraction.Point(10_000, 1.0), new LateFraction.Point(100_000, 0.75),
            new LateFraction.Point(1_000_000, 0.5), new LateFraction.Point(10_000_000, 0.25)), curve);
        for (int i = 1; i < curve.size(); i++) {
            assertTrue(curve.get(i).fraction() <= curve.get(i - 1).fraction(), "a fraction later than x never rises");
        }
        assertTrue(LateFraction.curve(new Histogram(3), 10_000, 10).isEmpty());
    }
}

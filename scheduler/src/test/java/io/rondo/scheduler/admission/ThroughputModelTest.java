package io.rondo.scheduler.admission;

import io.rondo.scheduler.disk.DiskProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The min and mean curves of papers/000 Figure 3, from a model and from measurements. */
class ThroughputModelTest {

    private static final long MS = 1_000_000L;
    /** Rounding of the numerical mean seek and of whole nanoseconds: well under a microsecond. */
    private static final double NS_TOLERANCE = 1_000;

    /**
     * A measured profile as {@code rondo profile} writes it: flat seek a = 5 ms, revolution
     * a_max - a = 3 ms, R = 80 MB/s, and three measured sizes. The rows need not lie on the
     * fitted line, and here do not, so that a test can tell which one answered.
     */
    static final String MEASURED = """
        {
          "name": "measured-test",
          "description": "a small measured profile",
          "capacityBytes": 1000000000,
          "cylinders": 1000,
          "revolutionMs": 3.0,
          "seekCurve": [ { "fromDistance": 1, "constantMs": 5.0, "sqrtMs": 0.0, "linearMs": 0.0 } ],
          "zones": [ { "fromCylinder": 0, "transferBytesPerSecond": 80000000 } ],
          "measured": {
            "at": "2024-01-01T00:00:00Z",
            "device": "sdx",
            "accessMs": 5.0,
            "accessMaxMs": 8.0,
            "transferBytesPerSecond": 80000000,
            "rows": [
              { "ioBytes": 4096, "reads": 16, "minMBps": 0.5, "meanMBps": 1.0, "maxMBps": 2.0 },
              { "ioBytes": 65536, "reads": 16, "minMBps": 5.0, "meanMBps": 10.0, "maxMBps": 20.0 },
              { "ioBytes": 1048576, "reads": 16, "minMBps": 40.0, "meanMBps": 60.0, "maxMBps": 70.0 }
            ]
          }
        }
        """;

    @TempDir
    Path dir;

    /** SmallDisk's comment works the numbers out: 14 and 18 ms for 100 KB, 19 and 23 ms for 150 KB. */
    @Test
    void aModelledDiskHasMeanAndWorstCaseCurves() {
        ThroughputModel model = ThroughputModel.of(new SmallDisk());

        assertFalse(model.measured());
        assertEquals(2 * MS, ThroughputModel.meanSeekNs(new SmallDisk()), NS_TOLERANCE);
        assertEquals(14 * MS, model.meanCurveNs(100_000), NS_TOLERANCE);
        assertEquals(18 * MS, model.minCurveNs(100_000), NS_TOLERANCE);
        assertEquals(19 * MS, model.meanCurveNs(150_000), NS_TOLERANCE);
        assertEquals(23 * MS, model.minCurveNs(150_000), NS_TOLERANCE);
        assertEquals(model.minCurveNs(150_000), model.ioNs(AdmissionPolicy.ADM1, 150_000));
        assertEquals(model.meanCurveNs(150_000), model.ioNs(AdmissionPolicy.ADM3, 150_000));
        assertEquals(0, model.meanCurveNs(0), "no fragment, no IO");
        // Throughput rises with the IO size, as in Figure 3: 100 KB in 14 ms is 7.14 MB/s.
        assertEquals(100_000 / 14e3, model.throughputMBps(100_000, false), 0.001);
        assertTrue(model.throughputMBps(1_000_000, false) > model.throughputMBps(100_000, false));
    }

    /**
     * ADM2's whole round on SmallDisk (AdmissionControllerTest works it out): four fragments of
     * 100,000 B (deviation 20,000 B) in one sweep take 4 * 1.75 ms of seeks, 8 ms of rotation and
     * 40 ms of transfer on average, plus 4.5 * sqrt(4 * 16 / 12 + 4 * 4) = 20.785 ms of margin.
     * One CBR fragment alone is capped at its worst, a seek of 4 ms plus a revolution and its
     * transfer, 18 ms, though its mean plus margin would pass it; and a round's transfer at every
     * stream's peak.
     */
    @Test
    void aWholeRoundIsChargedAtItsMeanPlusAMarginNeverPastItsWorst() {
        ThroughputModel model = ThroughputModel.of(new SmallDisk());

        assertEquals(75_785_000, model.roundNs(4, 400_000, 4 * 20_000.0 * 20_000, 600_000), NS_TOLERANCE);
        assertEquals(18 * MS, model.roundNs(1, 100_000, 0, 100_000), NS_TOLERANCE);
        assertEquals(3 * MS + 3 * MS + 3 * 4 * MS + 3 * 15 * MS,
            model.roundNs(3, 300_000, 3 * 5e9, 450_000), NS_TOLERANCE, "the transfer capped at the peaks");
        assertEquals(0, model.roundNs(0, 0, 0, 0), "no stream, no round");
        ThroughputModel paper = ThroughputModel.of(DiskProfile.paperDisk());
        assertTrue(paper.roundNs(20, 20 * 250_000, 0, 20 * 250_000) < 20 * paper.meanCurveNs(250_000),
            "on papers/001's disk one sweep's seeks cost less than twenty random ones, margin and all");
    }

    /**
     * papers/001 Table 1: the mean seek over two uniform positions is 8.49 ms (the seek at the
     * mean distance 6720 / 3 = 2240 cylinders would be 3.8635 + 0.0021 * 2240 = 8.57 ms; the
     * concave square-root piece pulls the mean below it). An 800,000-byte fragment transfers in
     * 800000 / 8.79e6 = 91.01 ms. Mean: 8.49 + 8.34 / 2 + 91.01 = 103.67 ms. Min (worst): the
     * full stroke 3.8635 + 0.0021 * 6719 = 17.97 ms, a revolution 8.34 ms: 117.33 ms.
     */
    @Test
    void thePaperDiskHasTheCurvesWorkedOutByHand() {
        ThroughputModel model = ThroughputModel.of(DiskProfile.paperDisk());

        assertFalse(model.measured());
        assertEquals(8.4906 * MS, ThroughputModel.meanSeekNs(DiskProfile.paperDisk()), 0.001 * MS);
        assertEquals(103.673 * MS, model.meanCurveNs(800_000), 0.001 * MS);
        assertEquals(117.326 * MS, model.minCurveNs(800_000), 0.001 * MS);
    }

    /**
     * Between measured sizes the throughput is interpolated linearly in log size. 16384 lies
     * halfway (in log) between 4096 and 65536, so the mean curve there is (1 + 10) / 2 = 5.5 MB/s:
     * 16384 / 5.5e6 s = 2.979 ms; the min curve (0.5 + 5) / 2 = 2.75 MB/s: 5.958 ms. (Linear in
     * size it would be 1 + 9 * 12288 / 61440 = 2.8 MB/s: 5.851 ms.) At a measured size the row
     * itself answers: 65536 B at 10 MB/s is 6.5536 ms.
     */
    @Test
    void aMeasuredProfileInterpolatesBetweenSizes() throws IOException {
        ThroughputModel model = ThroughputModel.of(measuredProfile());

        assertTrue(model.measured());
        assertEquals(2_978_910, model.meanCurveNs(16_384), 1);
        assertEquals(5_957_819, model.minCurveNs(16_384), 1);
        assertEquals(6_553_600, model.meanCurveNs(65_536), 1);
        assertEquals(13_107_200, model.minCurveNs(65_536), 1);
        assertEquals(1_048_576 * 1e3 / 60, model.meanCurveNs(1_048_576), 1);
        // 262144 lies halfway (in log) between 65536 and 1048576: mean (10 + 60) / 2 = 35 MB/s, 7.490 ms;
        // min (5 + 40) / 2 = 22.5 MB/s, 11.651 ms.
        assertEquals(7_489_829, model.meanCurveNs(262_144), 1);
        assertEquals(11_650_845, model.minCurveNs(262_144), 1);
    }

    /**
     * Past the measured sizes the profile's fitted line answers: mean a + s/R, min a_max + s/R.
     * 2 MiB at 80 MB/s transfers in 2097152 * 12.5 ns = 26.2144 ms: 31.2144 ms mean, 34.2144 ms min.
     * 1024 B: 12.8 us of transfer, 5.0128 ms mean, 8.0128 ms min.
     */
    @Test
    void aMeasuredProfileUsesItsFittedLineBeyondTheMeasuredSizes() throws IOException {
        ThroughputModel model = ThroughputModel.of(measuredProfile());

        assertEquals(31_214_400, model.meanCurveNs(2_097_152), 1);
        assertEquals(34_214_400, model.minCurveNs(2_097_152), 1);
        assertEquals(5_012_800, model.meanCurveNs(1024), 1);
        assertEquals(8_012_800, model.minCurveNs(1024), 1);
    }

    @Test
    void measuredRowsAreReadFromTheProfileAndCheckedOnLoad() throws IOException {
        DiskProfile profile = measuredProfile();
        assertEquals(3, profile.measuredRows().size());
        assertEquals(new DiskProfile.MeasuredRow(4096, 0.5, 1.0, 2.0), profile.measuredRows().get(0));
        assertTrue(DiskProfile.paperDisk().measuredRows().isEmpty());

        Path unordered = dir.resolve("unordered.json");
        Files.writeString(unordered, MEASURED.replace("\"ioBytes\": 65536", "\"ioBytes\": 2048"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskProfile.load(unordered));
        assertTrue(e.getMessage().contains("increasing 'ioBytes'"), e.getMessage());
    }

    private DiskProfile measuredProfile() throws IOException {
        Path file = dir.resolve("measured-test.json");
        Files.writeString(file, MEASURED);
        return DiskProfile.load(file);
    }
}

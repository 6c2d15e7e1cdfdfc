package io.rondo.benchmarks.preset.discrete;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.benchmarks.load.http.ClosedLoop;
import io.rondo.benchmarks.load.http.HttpLoad;
import io.rondo.benchmarks.load.http.LoadStep;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Nginx;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The side-by-side summary: the ratios against nginx and the verdicts on the targets, and the files written. */
class DiscreteReportTest {

    private static final long TEN_S = TimeUnit.SECONDS.toNanos(10);

    private static DiscreteSettings settings() {
        return new DiscreteSettings(300, 50_000, 25_000, 1, TimeUnit.SECONDS.toNanos(3), TEN_S, 2, 3, 0,
            2_000_000, List.of(Nginx.Variant.SENDFILE, Nginx.Variant.DIRECTIO), 2, TimeUnit.SECONDS.toNanos(5),
            DiscretePreset.SWEEP, TEN_S, List.of());
    }

    /** A step that answered {@code perSecond} for ten seconds, every latency {@code ms}. */
    private static LoadStep step(double offered, double perSecond, double ms) {
        Histogram latency = new Histogram(HttpLoad.HIGHEST_US, 3);
        long count = Math.round(perSecond * 10);
        latency.recordValueWithCount(Math.round(ms * 1000), count);
        return new LoadStep(offered, 32, TEN_S, count, count, 0, 0, count * 50_000, latency);
    }

    private static ClosedLoop closed(double perSecond) {
        return new ClosedLoop(perSecond, 100, List.of(perSecond - 50, perSecond, perSecond + 50));
    }

    @Test
    void ratiosAreRondoOverNginxAndTheVerdictsFollowTheTargets(@TempDir Path folder) throws Exception {
        FileSet files = FileSet.make(folder.resolve("files"), 2, 5_000, 1_000, 1);
        DiscreteReport report = new DiscreteReport(settings(), files);
        for (int i = 0; i < 2; i++) {
            report.closed(Nginx.Variant.SENDFILE, "rondo", closed(40_000 + i * 2_000));
            report.closed(Nginx.Variant.SENDFILE, "nginx-sendfile", closed(42_000));
            report.closed(Nginx.Variant.DIRECTIO, "rondo", closed(30_000));
            report.closed(Nginx.Variant.DIRECTIO, "nginx-directio", closed(20_000));
        }
        for (double fraction : DiscretePreset.SWEEP) {
            report.open(Nginx.Variant.SENDFILE, "rondo", fraction, step(fraction * 42_000, fraction * 42_000, 3));
            report.open(Nginx.Variant.SENDFILE, "nginx-sendfile", fraction, step(fraction * 42_000, fraction * 42_000,
                2));
            report.open(Nginx.Variant.DIRECTIO, "rondo", fraction, step(fraction * 20_000, fraction * 20_000, 1));
            report.open(Nginx.Variant.DIRECTIO, "nginx-directio", fraction, step(fraction * 20_000, fraction * 20_000,
                1));
        }
        assertEquals(41_000, report.throughput(Nginx.Variant.SENDFILE, "rondo"), 1);
        assertEquals(0.75, report.comparedFraction());
        String summary = report.summary();
        assertTrue(summary.contains("| nginx-sendfile | 32 | 41,000 | 42,000 | 0.98x | 3.00 / 2.00 ms | 1.50x |"),
            summary);
        assertTrue(summary.contains("| nginx-directio | 8 | 30,000 | 20,000 | 1.50x | 1.00 / 1.00 ms | 1.00x |"),
            summary);
        assertTrue(summary.contains("Rondo req/s >= 1.0x nginx's: NOT met; p99 <= 1.2x nginx's: NOT met"), summary);

        Path out = Files.createDirectories(folder.resolve("out"));
        report.write(out);
        JsonNode json = new ObjectMapper().readTree(out.resolve(DiscreteReport.JSON).toFile());
        assertEquals(1.5, json.at("/variants/nginx-directio/throughputRatio").asDouble(), 1e-9);
        assertEquals(2, json.at("/variants/nginx-sendfile/closed/rondo").size());
        assertEquals(DiscretePreset.SWEEP.length, json.at("/variants/nginx-sendfile/open/nginx-sendfile").size());
        for (String chart : List.of(DiscreteReport.CDF_CHART, DiscreteReport.THROUGHPUT_CHART)) {
            BufferedImage image = ImageIO.read(out.resolve(chart).toFile());
            assertNotNull(image, chart);
            assertEquals(960, image.getWidth());
        }
        assertTrue(Files.readString(out.resolve(DiscreteReport.SUMMARY)).startsWith("Discrete requests"));
    }
}

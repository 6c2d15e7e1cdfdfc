package io.rondo.server.cli;

import io.rondo.scheduler.device.DiskProfiler;
import io.rondo.server.config.ByteSizes;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The chart of a disk profile, drawn as papers/000 Figure 3 draws it: throughput against IO size,
 * the sizes on a log2 axis, the slowest (min), average (mean) and fastest (max) read of each size
 * as a curve; the fitted model {@code s / (a + s/R)} dashed beside them. The admission controller
 * reads the min curve to be conservative and the mean one to be aggressive.
 */
final class ProfileChart {

    private static final int WIDTH = 800;
    private static final int HEIGHT = 560;

    private ProfileChart() {
    }

    static void write(DiskProfiler.Result result, Path file) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title("Disk throughput vs. IO size: " + result.device().name() + " (" + result.device().id() + "), "
                + ByteSizes.format(result.fileBytes()) + " test file, " + result.reader() + " reader")
            .xAxisTitle("IO size (log2 scale)")
            .yAxisTitle("throughput [MiB/s]")
            .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(ProfileChart::sizeLabel);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        chart.getStyler().setYAxisMin(0.0);
        List<DiskProfiler.Row> rows = result.rows();
        double[] x = rows.stream().mapToDouble(row -> log2(row.ioBytes())).toArray();
        addCurve(chart, "max", x, rows, DiskProfiler.Row::maxMBps);
        addCurve(chart, "mean", x, rows, DiskProfiler.Row::meanMBps);
        addCurve(chart, "min", x, rows, DiskProfiler.Row::minMBps);
        DiskProfiler.Fit fit = result.fit();
        double[] model = rows.stream()
            .mapToDouble(row -> row.ioBytes() * 1e3 / ByteSizes.MIB / fit.serviceMs(row.ioBytes())).toArray();
        XYSeries fitted = chart.addSeries(String.format(Locale.ROOT, "fit: a = %.3f ms, R = %.0f MiB/s",
            fit.accessMs(), fit.transferBytesPerSecond() / ByteSizes.MIB), x, model);
        fitted.setMarker(SeriesMarkers.NONE);
        fitted.setLineStyle(SeriesLines.DASH_DASH);
        try {
            if (!ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", file.toFile())) {
                throw new IOException("no PNG writer in this JVM");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chart " + file + ": " + e.getMessage(), e);
        }
    }

    private static void addCurve(XYChart chart, String name, double[] x, List<DiskProfiler.Row> rows,
                                 ToDoubleFunction<DiskProfiler.Row> mbps) {
        chart.addSeries(name, x, rows.stream().mapToDouble(row -> ProfileCommand.mibps(mbps.applyAsDouble(row)))
            .toArray()).setMarker(SeriesMarkers.CIRCLE);
    }

    private static double log2(long value) {
        return 63 - Long.numberOfLeadingZeros(value);
    }

    /** A tick at log2 of a size is labelled with the size; ticks between powers of two are left bare. */
    private static String sizeLabel(double log2) {
        long exponent = Math.round(log2);
        if (Math.abs(log2 - exponent) > 1e-6 || exponent < 0 || exponent > 62) {
            return "";
        }
        long bytes = 1L << exponent;
        return bytes >= 1 << 30 ? (bytes >> 30) + "G" : bytes >= 1 << 20 ? (bytes >> 20) + "M"
            : bytes >= 1 << 10 ? (bytes >> 10) + "K" : Long.toString(bytes);
    }
}

package io.rondo.benchmarks.preset.live;

import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.preset.jitter.LateFraction;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One measured distribution of a live run, named for its table row and chart curve: write
 * latencies (bytes sent or written to durable) or read lateness (completion after due), with its
 * percentiles, its spread (p99 - p50: the jitter a player or a recorder must buffer for), and
 * papers/002 Figure 14's "fraction later than x" curve.
 *
 * @param name the row's and the curve's name
 * @param log the delays
 * @param write true for writes (a solid curve), false for reads (dashed)
 */
record DelaySeries(String name, DelayLog log, boolean write) {

    private static final double NS_PER_MS = 1e6;
    private static final long CURVE_FROM_NS = 10_000;
    private static final int POINTS_PER_DECADE = 20;
    private static final Color[] COLORS = {new Color(0, 114, 178), new Color(213, 94, 0), new Color(0, 158, 115),
        new Color(204, 121, 167), new Color(230, 159, 0)};

    /** The table's head, for {@link #row()}. */
    static final String TABLE_HEAD = "| series | count | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | p99 - p50 ms "
        + "| failures |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";

    /** Its figures, for the JSON. */
    Map<String, Object> json() {
        Histogram h = log.delays();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        m.put("p50Ms", ms(h, 50));
        m.put("p90Ms", ms(h, 90));
        m.put("p99Ms", ms(h, 99));
        m.put("p999Ms", ms(h, 99.9));
        m.put("maxMs", max(h));
        m.put("spreadP99MinusP50Ms", ms(h, 99) - ms(h, 50));
        m.put("failures", log.failures());
        if (log.firstFailure() != null) {
            m.put("firstFailure", log.firstFailure());
        }
        return m;
    }

    /** Its row of the Markdown table. */
    String row() {
        Histogram h = log.delays();
        return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %d |%n", name, h.getTotalCount(),
            fixed(ms(h, 50)), fixed(ms(h, 90)), fixed(ms(h, 99)), fixed(ms(h, 99.9)), fixed(max(h)),
            fixed(ms(h, 99) - ms(h, 50)), log.failures());
    }

    /** Its line of the one-screen summary. */
    String line() {
        Histogram h = log.delays();
        return String.format(Locale.ROOT, "  %-44s %7d %9s %9s %9s %9s%n", name, h.getTotalCount(), fixed(ms(h, 50)),
            fixed(ms(h, 99)), fixed(ms(h, 99.9)), fixed(max(h)));
    }

    /** The summary's head, for {@link #line()}. */
    static String lineHead() {
        return String.format(Locale.ROOT, "  %-44s %7s %9s %9s %9s %9s%n", "series", "count", "p50 ms", "p99 ms",
            "p99.9 ms", "max ms");
    }

    /** Writes the "fraction later than x" chart of {@code series}, log-log, to {@code png}. */
    static void chart(String title, String xTitle, List<DelaySeries> series, Path png) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle(xTitle)
            .yAxisTitle("fraction later than x").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setPlotGridLinesVisible(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(0);
        int c = 0;
        for (DelaySeries s : series) {
            List<LateFraction.Point> curve = LateFraction.curve(s.log.delays(), CURVE_FROM_NS, POINTS_PER_DECADE);
            Color color = COLORS[c++ % COLORS.length];
            if (curve.isEmpty()) {
                continue;
            }
            double[] x = new double[curve.size()];
            double[] y = new double[curve.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = curve.get(i).xNs() / NS_PER_MS;
                y[i] = curve.get(i).fraction();
            }
            XYSeries line = chart.addSeries(s.name, x, y);
            line.setMarker(SeriesMarkers.NONE).setLineColor(color);
            line.setLineStyle(s.write ? new BasicStroke(2.5f) : new BasicStroke(2f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("nothing later than 10 us", new double[] {0.01}, new double[] {1});
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / NS_PER_MS;
    }

    private static double max(Histogram h) {
        return h.getTotalCount() == 0 ? 0 : h.getMaxValue() / NS_PER_MS;
    }

    private static String fixed(double ms) {
        return String.format(Locale.ROOT, ms < 10 ? "%.3f" : "%.1f", ms);
    }
}

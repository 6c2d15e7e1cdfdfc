package io.rondo.benchmarks.preset.jitter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.benchmarks.load.paced.DelayLog;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results of a figure14 run: JSON with every figure and every curve, a Markdown table, a
 * one-screen summary, and the chart, papers/002 Figure 14's log-log "fraction of requests later
 * than x" with one curve per server and kind of reader.
 */
final class Figure14Report {

    /** The JSON's file name. */
    static final String JSON = "figure14.json";
    /** The table's file name. */
    static final String MARKDOWN = "figure14.md";
    /** The chart's file name. */
    static final String PNG = "figure14.png";

    /** Where the curves start: 10 microseconds, below any read that crosses a socket. */
    static final long CURVE_FROM_NS = 10_000;
    private static final int POINTS_PER_DECADE = 20;
    /** papers/002's bound for a guaranteed read, and a tenth of a round: thresholds the table counts reads over. */
    private static final long[] THRESHOLDS_NS = {5_000_000, 100_000_000};
    private static final double NS_PER_MS = 1e6;

    private final Map<String, Object> settings;
    private final List<Phase> phases;
    private final List<String> cacheNotes;
    private final long runtimeNs;

    Figure14Report(Map<String, Object> settings, List<Phase> phases, List<String> cacheNotes, long runtimeNs) {
        this.settings = settings;
        this.phases = List.copyOf(phases);
        this.cacheNotes = List.copyOf(cacheNotes);
        this.runtimeNs = runtimeNs;
    }

    /** Writes the JSON, the table and the chart into {@code folder}. */
    void write(Path folder) throws IOException {
        Files.createDirectories(folder);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve(JSON).toFile(),
            json());
        Files.writeString(folder.resolve(MARKDOWN), markdown(), StandardCharsets.UTF_8);
        BitmapEncoder.saveBitmap(chart(), folder.resolve(PNG).toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Everything, for Jackson. */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("figure", "papers/002 (ABISS) Figure 14: jitter of paced reads under 8 greedy readers");
        m.put("settings", settings);
        m.put("pageCache", cacheNotes);
        m.put("runtimeSeconds", runtimeNs / 1e9);
        List<Object> list = new ArrayList<>();
        for (Phase p : phases) {
            Map<String, Object> phase = new LinkedHashMap<>();
            phase.put("server", p.server());
            phase.put("streams", p.guaranteed() ? "guaranteed (Rondo's stream protocol)"
                : "best effort (paced HTTP Range reads)");
            phase.put("streamsRun", p.streamsAdmitted());
            phase.put("pacedReads", delays(p.streams()));
            if (p.glitches() >= 0) {
                phase.put("lateDataFragments", p.glitches());
                phase.put("dataRfc3550JitterMeanMs", number(p.dataJitterMeanNs() / NS_PER_MS));
                phase.put("pacedReadsThatWaitedForData", p.readsThatWaited());
            }
            Map<String, Object> greedy = delays(p.greedy());
            greedy.put("bytes", p.greedyBytes());
            greedy.put("seconds", p.elapsedNs() / 1e9);
            greedy.put("megabytesPerSecond", p.greedyMegabytesPerSecond());
            phase.put("greedyReads", greedy);
            phase.putAll(p.extra());
            list.add(phase);
        }
        m.put("phases", list);
        return m;
    }

    private static Map<String, Object> delays(DelayLog log) {
        Histogram h = log.delays();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        m.put("p50Ms", ms(h, 50));
        m.put("p99Ms", ms(h, 99));
        m.put("p999Ms", ms(h, 99.9));
        m.put("maxMs", h.getTotalCount() == 0 ? 0 : h.getMaxValue() / NS_PER_MS);
        for (long t : THRESHOLDS_NS) {
            m.put("laterThan" + (t / 1_000_000) + "Ms", laterCount(h, t));
        }
        Histogram wakeUps = log.wakeUps();
        if (wakeUps.getTotalCount() > 0) {
            m.put("readerWakeUpDelay", Map.of("p99Ms", ms(wakeUps, 99), "p999Ms", ms(wakeUps, 99.9),
                "maxMs", wakeUps.getMaxValue() / NS_PER_MS));
        }
        List<Double> rfc = log.streamJitterNs();
        m.put("rfc3550JitterMsByStream", rfc.stream().map(j -> j / NS_PER_MS).toList());
        m.put("failures", log.failures());
        if (log.firstFailure() != null) {
            m.put("firstFailure", log.firstFailure());
        }
        List<List<Double>> curve = new ArrayList<>();
        for (LateFraction.Point p : LateFraction.curve(h, CURVE_FROM_NS, POINTS_PER_DECADE)) {
            curve.add(List.of(p.xNs() / NS_PER_MS, p.fraction()));
        }
        m.put("laterThanCurveMs", curve);
        return m;
    }

    /** The table, as Markdown. */
    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("| server | reader | reads | p50 ms | p99 ms | p99.9 ms | max ms | > 5 ms | > 100 ms "
            + "| RFC 3550 J ms (mean / max) | reader wake-up p99.9 / max ms | late DATA | greedy MB/s |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Phase p : phases) {
            md.append(row(p, true)).append('\n');
            md.append(row(p, false)).append('\n');
        }
        for (Phase p : phases) {
            if (p.readsThatWaited() >= 0) {
                md.append(String.format(Locale.ROOT, "%n%s: %d streams admitted; %d DATA arrived after their deadline;"
                    + " %d paced reads found their fragment not yet there and waited for it (every other read's jitter"
                    + " is the reading thread's own wake-up); %s streams ended before their reads were over.%n",
                    p.server(), p.streamsAdmitted(), p.glitches(), p.readsThatWaited(),
                    p.extra().getOrDefault(JitterPreset.STREAMS_CUT_SHORT, 0L)));
            }
        }
        md.append('\n').append("Page cache: ").append(String.join("; ", cacheNotes)).append(".\n");
        md.append(String.format(Locale.ROOT, "Runtime %.0f s; settings %s.%n", runtimeNs / 1e9, settings));
        return md.toString();
    }

    private static String row(Phase p, boolean streams) {
        DelayLog log = streams ? p.streams() : p.greedy();
        Histogram h = log.delays();
        String reader = streams ? (p.guaranteed() ? "stream, guaranteed" : "stream, paced Range GETs")
            : "greedy GET";
        List<Double> rfc = log.streamJitterNs();
        String rfcText = streams && !rfc.isEmpty() ? String.format(Locale.ROOT, "%.3f / %.3f",
            rfc.stream().mapToDouble(Double::doubleValue).average().orElse(0) / NS_PER_MS,
            rfc.stream().mapToDouble(Double::doubleValue).max().orElse(0) / NS_PER_MS) : "";
        Histogram wakeUps = log.wakeUps();
        String wake = streams && wakeUps.getTotalCount() > 0 ? fixed(ms(wakeUps, 99.9)) + " / "
            + fixed(wakeUps.getMaxValue() / NS_PER_MS) : "";
        String late = streams && p.glitches() >= 0 ? Long.toString(p.glitches()) : "";
        String mbps = streams ? "" : String.format(Locale.ROOT, "%.0f", p.greedyMegabytesPerSecond());
        return String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %d | %d | %s | %s | %s | %s |",
            p.server(),
            reader, h.getTotalCount(), fixed(ms(h, 50)), fixed(ms(h, 99)), fixed(ms(h, 99.9)),
            fixed(h.getTotalCount() == 0 ? 0 : h.getMaxValue() / NS_PER_MS), laterCount(h, THRESHOLDS_NS[0]),
            laterCount(h, THRESHOLDS_NS[1]), rfcText, wake, late, mbps);
    }

    /** The one-screen summary. */
    String text() {
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "figure14: jitter of paced reads (completion - due), %.0f s run%n",
            runtimeNs / 1e9));
        t.append(String.format(Locale.ROOT, "  %-15s %-10s %8s %9s %9s %9s %9s %8s %10s%n", "server", "reader",
            "reads", "p50 ms", "p99 ms", "p99.9 ms", "max ms", ">5 ms", "greedy MB/s"));
        for (Phase p : phases) {
            for (boolean streams : new boolean[] {true, false}) {
                Histogram h = (streams ? p.streams() : p.greedy()).delays();
                t.append(String.format(Locale.ROOT, "  %-15s %-10s %8d %9s %9s %9s %9s %8d %10s%n", p.server(),
                    streams ? "stream" : "greedy", h.getTotalCount(), fixed(ms(h, 50)), fixed(ms(h, 99)),
                    fixed(ms(h, 99.9)), fixed(h.getTotalCount() == 0 ? 0 : h.getMaxValue() / NS_PER_MS),
                    laterCount(h, THRESHOLDS_NS[0]),
                    streams ? "" : String.format(Locale.ROOT, "%.0f", p.greedyMegabytesPerSecond())));
            }
            if (p.glitches() >= 0) {
                t.append(String.format(Locale.ROOT, "  %-15s %d streams admitted, %d DATA after their deadline,"
                    + " %d reads waited for their DATA%n", "", p.streamsAdmitted(), p.glitches(),
                    p.readsThatWaited()));
            }
            Object cutShort = p.extra().get(JitterPreset.STREAMS_CUT_SHORT);
            if (cutShort instanceof Long n && n > 0) {
                t.append(String.format(Locale.ROOT, "  %-15s %d streams ended before their reads were over: see"
                    + " rondoStreamLoad in %s%n", "", n, JSON));
            }
            Histogram wakeUps = p.streams().wakeUps();
            if (wakeUps.getTotalCount() > 0) {
                t.append(String.format(Locale.ROOT, "  %-15s the stream readers' own wake-up delay: p99.9 %s ms, max %s"
                    + " ms%n", "", fixed(ms(wakeUps, 99.9)), fixed(wakeUps.getMaxValue() / NS_PER_MS)));
            }
            for (DelayLog log : List.of(p.streams(), p.greedy())) {
                if (log.failures() > 0) {
                    t.append(String.format(Locale.ROOT, "  %-15s %d failed requests, the first: %s%n", "",
                        log.failures(), log.firstFailure()));
                }
            }
        }
        t.append("  page cache: ").append(String.join("; ", cacheNotes)).append('\n');
        return t.toString();
    }

    /** Figure 14's plot: fraction of reads later than x, both axes logarithmic. */
    XYChart chart() {
        XYChart chart = new XYChartBuilder().width(900).height(600)
            .title("Jitter of paced reads under greedy readers (papers/002 Figure 14)")
            .xAxisTitle("x: completion - due time, ms").yAxisTitle("fraction of reads later than x").build();
        XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setYAxisLogarithmic(true);
        styler.setPlotGridLinesVisible(true);
        styler.setLegendPosition(Styler.LegendPosition.InsideSW);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setMarkerSize(0);
        Color[] colors = {new Color(0, 114, 178), new Color(213, 94, 0), new Color(0, 158, 115),
            new Color(204, 121, 167), new Color(230, 159, 0)};
        int c = 0;
        for (Phase p : phases) {
            Color color = colors[c++ % colors.length];
            add(chart, p.server() + (p.guaranteed() ? " streams (guaranteed)" : " paced reads (best effort)"),
                p.streams(), color, false);
            add(chart, p.server() + " greedy readers", p.greedy(), color, true);
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("no reads later than 10 us", new double[] {0.01}, new double[] {1});
        }
        return chart;
    }

    private static void add(XYChart chart, String name, DelayLog log, Color color, boolean dashed) {
        List<LateFraction.Point> curve = LateFraction.curve(log.delays(), CURVE_FROM_NS, POINTS_PER_DECADE);
        if (curve.isEmpty()) {
            return;
        }
        double[] x = new double[curve.size()];
        double[] y = new double[curve.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = curve.get(i).xNs() / NS_PER_MS;
            y[i] = curve.get(i).fraction();
        }
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE).setLineColor(color);
        series.setLineStyle(dashed ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f) : new BasicStroke(2.5f));
    }

    private static long laterCount(Histogram h, long thresholdNs) {
        return Math.round(LateFraction.laterThan(h, thresholdNs) * h.getTotalCount());
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / NS_PER_MS;
    }

    private static String fixed(double ms) {
        return String.format(Locale.ROOT, ms < 10 ? "%.3f" : "%.1f", ms);
    }

    private static Double number(double value) {
        return Double.isNaN(value) ? null : value;
    }
}

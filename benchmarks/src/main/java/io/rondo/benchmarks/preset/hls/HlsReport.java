package io.rondo.benchmarks.preset.hls;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.preset.jitter.LateFraction;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

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
 * The hls preset as a person reads it: a row a phase (part response p50/p99/max, parts later than
 * their own duration, refused sessions, failed answers, Rondo's parts from memory and from disk),
 * as Markdown and CSV, everything as JSON, and the fraction of parts slower than x, log-log, a
 * curve a phase.
 */
final class HlsReport {

    static final String JSON = "hls.json";
    static final String MARKDOWN = "hls.md";
    static final String CSV = "hls.csv";
    static final String PNG = "hls.png";

    private static final double NS_PER_MS = 1e6;
    private static final long CURVE_FROM_NS = 100_000;
    private static final int POINTS_PER_DECADE = 10;

    private final Map<String, Object> settings;
    private final int greedyReaders;
    private final List<HlsPhase> phases;
    private final DelayLog live;
    private final long runtimeNs;

    /**
     * @param live the LL-HLS live delays; null where none was measured
     */
    HlsReport(Map<String, Object> settings, int greedyReaders, List<HlsPhase> phases, DelayLog live,
              long runtimeNs) {
        this.settings = settings;
        this.greedyReaders = greedyReaders;
        this.phases = List.copyOf(phases);
        this.live = live;
        this.runtimeNs = runtimeNs;
    }

    /** Writes the JSON, the table, the CSV and the chart into {@code folder}. */
    void write(Path folder) throws IOException {
        Files.createDirectories(folder);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve(JSON).toFile(),
            json());
        Files.writeString(folder.resolve(MARKDOWN), markdown(), StandardCharsets.UTF_8);
        Files.writeString(folder.resolve(CSV), csv(), StandardCharsets.UTF_8);
        System.setProperty("java.awt.headless", "true");
        BitmapEncoder.saveBitmap(chart(), folder.resolve(PNG).toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Answers that failed over every phase: a status or length other than asked, or no answer. */
    long failedAnswers() {
        return phases.stream().mapToLong(p -> p.log().parts().failures()).sum() + (live == null ? 0
            : live.failures());
    }

    /** The table, as Markdown. */
    String markdown() {
        StringBuilder md = new StringBuilder("| phase | sessions | refused | parts | p50 ms | p99 ms | max ms "
            + "| late | failed | from memory / disk | greedy MB/s | client wake-up p99 ms |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (HlsPhase p : phases) {
            Histogram h = p.log().parts().delays();
            md.append(String.format(Locale.ROOT,
                "| %s | %d | %d | %d | %.1f | %.1f | %.1f | %d | %d | %s | %s | %.1f |%n",
                p.label(greedyReaders), p.sessions(), p.log().refusedCount(), h.getTotalCount(), ms(h, 50),
                ms(h, 99), max(h), p.log().late(), p.log().parts().failures(), sources(p),
                p.greedy() ? String.format(Locale.ROOT, "%.0f", p.greedyMegabytesPerSecond()) : "",
                ms(p.log().parts().wakeUps(), 99)));
        }
        for (HlsPhase p : phases) {
            if (p.log().firstRefusal() != null) {
                md.append("\n").append(p.label(greedyReaders)).append(": the first refusal said \"")
                    .append(p.log().firstRefusal()).append("\"");
            }
            if (p.log().parts().firstFailure() != null) {
                md.append("\n").append(p.label(greedyReaders)).append(": the first failed answer: ")
                    .append(p.log().parts().firstFailure());
            }
        }
        if (live != null) {
            Histogram h = live.delays();
            md.append(String.format(Locale.ROOT, "%nLL-HLS live delay (a part's last byte received minus its media's "
                + "end by the playlist's program date-time), %d parts: p50 %.0f ms, p99 %.0f ms, max %.0f ms; "
                + "%d failed answers%s%n", h.getTotalCount(), ms(h, 50), ms(h, 99), max(h), live.failures(),
                live.firstFailure() == null ? "" : " (the first: " + live.firstFailure() + ")"));
        }
        return md.append('\n').toString();
    }

    /** The same rows as CSV, in milliseconds; -1 where a server has no such count. */
    String csv() {
        StringBuilder csv = new StringBuilder("server,greedy,sessions,admitted,refused,parts,p50_ms,p99_ms,max_ms,"
            + "late,failed,memory_parts,disk_parts,greedy_mb_per_s,client_wakeup_p99_ms\n");
        for (HlsPhase p : phases) {
            Histogram h = p.log().parts().delays();
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%d,%d,%d,%d,%.1f,%.3f%n",
                p.server(), p.greedy() ? greedyReaders : 0, p.sessions(), p.log().admittedCount(),
                p.log().refusedCount(), h.getTotalCount(), ms(h, 50), ms(h, 99), max(h), p.log().late(),
                p.log().parts().failures(), p.parts() == null ? -1 : p.parts().memory(),
                p.parts() == null ? -1 : p.parts().disk(), p.greedyMegabytesPerSecond(),
                ms(p.log().parts().wakeUps(), 99)));
        }
        return csv.toString();
    }

    /** Everything, for Jackson. */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("settings", settings);
        m.put("runtimeSeconds", runtimeNs / 1e9);
        List<Object> list = new ArrayList<>();
        for (HlsPhase p : phases) {
            Histogram h = p.log().parts().delays();
            Map<String, Object> phase = new LinkedHashMap<>();
            phase.put("server", p.server());
            phase.put("greedyReaders", p.greedy() ? greedyReaders : 0);
            phase.put("sessions", p.sessions());
            phase.put("admitted", p.log().admittedCount());
            phase.put("refused", p.log().refusedCount());
            phase.put("firstRefusal", p.log().firstRefusal());
            phase.put("parts", h.getTotalCount());
            phase.put("partBytes", p.log().parts().bytes());
            phase.put("responseP50Ms", ms(h, 50));
            phase.put("responseP99Ms", ms(h, 99));
            phase.put("responseP999Ms", ms(h, 99.9));
            phase.put("responseMaxMs", max(h));
            phase.put("lateParts", p.log().late());
            phase.put("failedAnswers", p.log().parts().failures());
            phase.put("firstFailedAnswer", p.log().parts().firstFailure());
            phase.put("clientWakeUpP99Ms", ms(p.log().parts().wakeUps(), 99));
            if (p.parts() != null) {
                phase.put("serverPartsFromMemory", p.parts().memory());
                phase.put("serverPartsFromDisk", p.parts().disk());
            }
            if (p.greedy()) {
                phase.put("greedyMegabytesPerSecond", p.greedyMegabytesPerSecond());
            }
            list.add(phase);
        }
        m.put("phases", list);
        if (live != null) {
            Histogram h = live.delays();
            Map<String, Object> delay = new LinkedHashMap<>();
            delay.put("parts", h.getTotalCount());
            delay.put("p50Ms", ms(h, 50));
            delay.put("p99Ms", ms(h, 99));
            delay.put("maxMs", max(h));
            delay.put("failedAnswers", live.failures());
            delay.put("firstFailedAnswer", live.firstFailure());
            m.put("llHlsLiveDelay", delay);
        }
        return m;
    }

    private XYChart chart() {
        XYChart chart = new XYChartBuilder().width(900).height(560)
            .title("HLS part response time: fraction of parts slower than x")
            .xAxisTitle("part response time, request sent to last byte (ms)").yAxisTitle("fraction of parts").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(0);
        for (HlsPhase p : phases) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (LateFraction.Point point : LateFraction.curve(p.log().parts().delays(), CURVE_FROM_NS,
                POINTS_PER_DECADE)) {
                x.add(point.xNs() / NS_PER_MS);
                y.add(point.fraction());
            }
            if (!x.isEmpty()) {
                chart.addSeries(p.label(greedyReaders), x, y);
            }
        }
        return chart;
    }

    private static String sources(HlsPhase p) {
        if (p.parts() == null) {
            return "";
        }
        if (p.parts().memory() < 0) {
            return "not metered";
        }
        return p.parts().memory() + " / " + p.parts().disk();
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / NS_PER_MS;
    }

    private static double max(Histogram h) {
        return h.getTotalCount() == 0 ? 0 : h.getMaxValue() / NS_PER_MS;
    }
}

package io.rondo.benchmarks.preset.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results of a timeshift run: write and read jitter of Rondo beside best effort, as JSON, a
 * Markdown table, a one-screen summary, and a log-log "fraction later than x" chart.
 */
final class TimeshiftReport {

    /** The JSON's file name. */
    static final String JSON = "timeshift.json";
    /** The table's file name. */
    static final String MARKDOWN = "timeshift.md";
    /** The chart's file name. */
    static final String PNG = "timeshift.png";

    private final Map<String, Object> settings;
    private final TimeshiftPhases.Side rondo;
    private final TimeshiftPhases.Side bestEffort;
    private final long runtimeNs;

    TimeshiftReport(Map<String, Object> settings, TimeshiftPhases.Side rondo, TimeshiftPhases.Side bestEffort,
                    long runtimeNs) {
        this.settings = settings;
        this.rondo = rondo;
        this.bestEffort = bestEffort;
        this.runtimeNs = runtimeNs;
    }

    /** The four distributions: writes and reads of each side. */
    List<DelaySeries> series() {
        return List.of(
            new DelaySeries("rondo writes: sent to DURABLE, per round", rondo.writes(), true),
            new DelaySeries("best effort writes: write + fsync, per second", bestEffort.writes(), true),
            new DelaySeries("rondo viewer: paced read lateness", rondo.reads(), false),
            new DelaySeries(bestEffort.server() + " viewer: paced Range read lateness", bestEffort.reads(), false));
    }

    /** Writes the JSON, the table and the chart into {@code folder}. */
    void write(Path folder) throws IOException {
        Files.createDirectories(folder);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve(JSON).toFile(),
            json());
        Files.writeString(folder.resolve(MARKDOWN), markdown(), StandardCharsets.UTF_8);
        DelaySeries.chart("Recording while watching timeshifted, under greedy readers (papers/002 Section 5.2)",
            "x: write latency (solid) or read lateness (dashed), ms", series(), folder.resolve(PNG));
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("preset", "papers/002 (ABISS) Section 5.2: recordings and a timeshifted viewer under greedy readers");
        m.put("settings", settings);
        m.put("runtimeSeconds", runtimeNs / 1e9);
        Map<String, Object> series = new LinkedHashMap<>();
        for (DelaySeries s : series()) {
            series.put(s.name(), s.json());
        }
        m.put("series", series);
        m.put("rondo", side(rondo));
        m.put("bestEffort", side(bestEffort));
        return m;
    }

    private static Map<String, Object> side(TimeshiftPhases.Side side) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("server", side.server());
        m.put("greedyReads", new DelaySeries("greedy", side.greedy().log(), false).json());
        m.put("greedyMegabytesPerSecond", greedyMegabytesPerSecond(side));
        m.putAll(side.extra());
        return m;
    }

    String markdown() {
        StringBuilder md = new StringBuilder(DelaySeries.TABLE_HEAD);
        series().forEach(s -> md.append(s.row()));
        md.append(String.format(Locale.ROOT, "%nGreedy readers: %.0f MB/s beside Rondo, %.0f MB/s beside %s.%n",
            greedyMegabytesPerSecond(rondo), greedyMegabytesPerSecond(bestEffort), bestEffort.server()));
        md.append(recordingsLine()).append('\n');
        md.append(String.format(Locale.ROOT, "Runtime %.0f s; settings %s.%n", runtimeNs / 1e9, settings));
        return md.toString();
    }

    String text() {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "timeshift: write and read jitter, %.0f s run%n",
            runtimeNs / 1e9));
        t.append(DelaySeries.lineHead());
        series().forEach(s -> t.append(s.line()));
        t.append("  ").append(recordingsLine()).append('\n');
        return t.toString();
    }

    private String recordingsLine() {
        Object recordings = rondo.extra().get("recordings");
        Object viewer = rondo.extra().get("viewer");
        String r = recordings instanceof Map<?, ?> map ? String.format(Locale.ROOT,
            "Rondo: %s of %s recordings accepted, refused %s, ended with an error %s; %s fragments durable, %s of them "
                + "more than two rounds after their bytes were sent.", map.get("accepted"), map.get("asked"),
            map.get("refusedByReason"), map.get("endedWithError"), map.get("fragmentsDurable"),
            map.get("fragmentsDurableAfterMoreThanTwoRounds")) : "";
        String v = viewer instanceof Map<?, ?> map ? String.format(Locale.ROOT,
            " Its viewer: %s DATA after their deadline.", map.get("lateDataFragments")) : "";
        return r + v;
    }

    private static double greedyMegabytesPerSecond(TimeshiftPhases.Side side) {
        long ns = side.greedy().elapsedNs();
        return ns > 0 ? side.greedy().bytes() / 1e6 / (ns / 1e9) : 0;
    }
}

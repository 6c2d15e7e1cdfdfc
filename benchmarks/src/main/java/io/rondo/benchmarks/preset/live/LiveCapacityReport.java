package io.rondo.benchmarks.preset.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.benchmarks.load.greedy.GreedyProcess;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.stream.LoadSummary;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results of a live-capacity run: the recordings (accepted, refused by reason, late), the
 * viewers (admitted, refused by reason, late fragments), the greedy downloads and the server's own
 * late write rounds, as JSON, a Markdown table, a one-screen summary and a chart of the write
 * latencies and the fragments' lateness.
 */
final class LiveCapacityReport {

    /** The JSON's file name. */
    static final String JSON = "live-capacity.json";
    /** The table's file name. */
    static final String MARKDOWN = "live-capacity.md";
    /** The chart's file name. */
    static final String PNG = "live-capacity.png";
    /** The series of the edge viewers' delay behind live. */
    static final String BEHIND_LIVE = "edge viewers: delay behind live, sent to DATA";
    /** The same but for each viewer's first DATA, the newest fragment, already cut when it opened. */
    static final String BEHIND_LIVE_AFTER_FIRST = "edge viewers: delay behind live, after the first DATA";

    private final Map<String, Object> settings;
    private final LiveRig.Recordings recordings;
    private final LoadSummary viewers;
    private final DelayLog lateness;
    private final DelayLog[] behindLive;
    private final GreedyProcess greedy;
    private final Map<String, Object> admin;
    private final List<String> deleteFailures;
    private final long runtimeNs;

    /**
     * @param viewers the viewers' summary; null when no recording was accepted, so none could be watched
     * @param behindLive the edge viewers' delay behind live (a DATA's arrival minus the send of the bytes
     *     that complete its fragment): of every DATA, and of all but each viewer's first
     */
    LiveCapacityReport(Map<String, Object> settings, LiveRig.Recordings recordings, LoadSummary viewers,
                       DelayLog lateness, DelayLog[] behindLive, GreedyProcess greedy, Map<String, Object> admin,
                       List<String> deleteFailures, long runtimeNs) {
        this.settings = settings;
        this.recordings = recordings;
        this.viewers = viewers;
        this.lateness = lateness;
        this.behindLive = behindLive;
        this.greedy = greedy;
        this.admin = admin;
        this.deleteFailures = deleteFailures;
        this.runtimeNs = runtimeNs;
    }

    List<DelaySeries> series() {
        return List.of(new DelaySeries("writes: sent to DURABLE, per round", recordings.durability(), true),
            new DelaySeries("viewers: DATA arrival after its deadline", lateness, false),
            new DelaySeries(BEHIND_LIVE, behindLive[0], false),
            new DelaySeries(BEHIND_LIVE_AFTER_FIRST, behindLive[1], false),
            new DelaySeries("greedy GETs: whole file", greedy.log(), false));
    }

    void write(Path folder) throws IOException {
        Files.createDirectories(folder);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve(JSON).toFile(),
            json());
        Files.writeString(folder.resolve(MARKDOWN), markdown(), StandardCharsets.UTF_8);
        DelaySeries.chart("Recordings, live and timeshifted viewers and greedy downloads together",
            "x: write latency (solid) or lateness, delay behind live, service time (dashed), ms", series(),
            folder.resolve(PNG));
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("preset", "live-capacity: recordings, viewers at the live edge and behind, greedy downloads");
        m.put("settings", settings);
        m.put("runtimeSeconds", runtimeNs / 1e9);
        m.put("recordings", recordings.json((Integer) settings.get("recordings")));
        m.put("serverLateWriteRounds", admin);
        m.put("viewers", viewers == null ? Map.of("note", "no recording was accepted to watch") : viewers.json());
        Map<String, Object> series = new LinkedHashMap<>();
        for (DelaySeries s : series()) {
            series.put(s.name(), s.json());
        }
        m.put("series", series);
        m.put("greedyMegabytesPerSecond", greedyMegabytesPerSecond());
        m.put("deleteFailures", deleteFailures);
        return m;
    }

    /** The headline figures, one per row. */
    private Map<String, String> figures() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("recordings accepted / asked", recordings.publishers().size() + " / " + settings.get("recordings"));
        f.put("recordings refused, by reason", recordings.json(0).get("refusedByReason").toString());
        f.put("recordings ended with an error", Long.toString(recordings.failed()));
        Object late = admin.get(AdminLive.LATE_WRITE_ROUNDS);
        f.put("late write rounds (the server's count)", late != null ? late.toString()
            : "not reported (" + admin.getOrDefault("note", "") + ")");
        f.put("fragments durable more than two rounds after their bytes were sent", Long.toString(recordings.late()));
        if (viewers != null) {
            Map<String, Object> v = viewers.json();
            f.put("viewers admitted / asked", viewers.admitted() + " / " + settings.get("viewers"));
            f.put("viewers refused, by reason", String.valueOf(v.get("rejects")));
            f.put("viewers' errors, by code", String.valueOf(v.get("errors")));
            f.put("viewers' streams, by how they ended", String.valueOf(((Map<?, ?>) v.get("streams")).get("ended")));
            f.put("fragments received / late", ((Map<?, ?>) v.get("fragments")).get("received") + " / "
                + viewers.lateFragments());
            f.put("delay behind live at the edge, p50 / p90 / p99 / max ms", delay(BEHIND_LIVE, behindLive[0]));
            f.put("the same, without each viewer's first DATA", delay(BEHIND_LIVE_AFTER_FIRST, behindLive[1]));
        }
        f.put("greedy downloads", String.format(Locale.ROOT, "%.0f MB/s, %d failed", greedyMegabytesPerSecond(),
            greedy.log().failures()));
        return f;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("| figure | value |\n|---|---|\n");
        figures().forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v.replace("|", "/"))
            .append(" |\n"));
        md.append('\n').append(DelaySeries.TABLE_HEAD);
        series().forEach(s -> md.append(s.row()));
        md.append(String.format(Locale.ROOT, "%nRuntime %.0f s; settings %s.%n", runtimeNs / 1e9, settings));
        return md.toString();
    }

    String text() {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "live-capacity: %.0f s run%n",
            runtimeNs / 1e9));
        figures().forEach((k, v) -> t.append(String.format(Locale.ROOT, "  %-68s %s%n", k, v)));
        t.append(DelaySeries.lineHead());
        series().forEach(s -> t.append(s.line()));
        return t.toString();
    }

    private static String delay(String name, DelayLog log) {
        Map<String, Object> d = new DelaySeries(name, log, false).json();
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f / %.0f (%d DATA)", d.get("p50Ms"), d.get("p90Ms"),
            d.get("p99Ms"), d.get("maxMs"), (Long) d.get("count"));
    }

    private double greedyMegabytesPerSecond() {
        long ns = greedy.elapsedNs();
        return ns > 0 ? greedy.bytes() / 1e6 / (ns / 1e9) : 0;
    }
}

package io.rondo.benchmarks.preset.discrete;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.benchmarks.load.http.ClosedLoop;
import io.rondo.benchmarks.load.http.LoadStep;
import io.rondo.benchmarks.load.stream.LoadSummary;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Nginx;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a discrete-vs-nginx run measured, and its forms: JSON, the side-by-side summary with the
 * ratios against the targets, a latency CDF chart and a throughput-against-offered-load
 * chart.
 */
final class DiscreteReport {

    static final String JSON = "discrete-vs-nginx.json";
    static final String CDF_CHART = "latency-cdf.png";
    static final String THROUGHPUT_CHART = "throughput.png";
    static final String SUMMARY = "summary.md";

    /** Targets: discrete throughput at least nginx's, p99 at most 1.2x, 0.9x of nginx while streams play. */
    static final double TARGET_THROUGHPUT = 1.0;
    static final double TARGET_P99 = 1.2;
    static final double TARGET_WITH_STREAMS = 0.9;

    private static final double[] CDF_PERCENTILES = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99,
        99.5, 99.9, 99.95, 99.99, 100};

    /** One open step, at its fraction of nginx's saturation. */
    record OpenStep(double fraction, LoadStep step) {
    }

    private final DiscreteSettings settings;
    private final FileSet files;
    private final Map<Nginx.Variant, Map<String, List<ClosedLoop>>> closed = new EnumMap<>(Nginx.Variant.class);
    private final Map<Nginx.Variant, Map<String, List<OpenStep>>> open = new EnumMap<>(Nginx.Variant.class);
    private final List<ClosedLoop> withStreams = new ArrayList<>();
    private LoadSummary streams;
    private String serverLog = "";

    DiscreteReport(DiscreteSettings settings, FileSet files) {
        this.settings = settings;
        this.files = files;
    }

    void closed(Nginx.Variant variant, String server, ClosedLoop step) {
        closed.computeIfAbsent(variant, v -> new LinkedHashMap<>()).computeIfAbsent(server, s -> new ArrayList<>())
            .add(step);
    }

    void open(Nginx.Variant variant, String server, double fraction, LoadStep step) {
        open.computeIfAbsent(variant, v -> new LinkedHashMap<>()).computeIfAbsent(server, s -> new ArrayList<>())
            .add(new OpenStep(fraction, step));
    }

    void withStreams(ClosedLoop step) {
        withStreams.add(step);
    }

    void streams(LoadSummary summary) {
        this.streams = summary;
    }

    void serverLog(String printed) {
        this.serverLog = printed;
    }

    /** The mean closed-loop throughput of {@code server} in {@code variant}; NaN if it was not run. */
    double throughput(Nginx.Variant variant, String server) {
        List<ClosedLoop> steps = closed.getOrDefault(variant, Map.of()).getOrDefault(server, List.of());
        return steps.stream().mapToDouble(ClosedLoop::perSecond).average().orElse(Double.NaN);
    }

    /** The p99 of {@code server}'s open step at {@code fraction} of nginx's throughput; NaN if none. */
    double p99At(Nginx.Variant variant, String server, double fraction) {
        return open.getOrDefault(variant, Map.of()).getOrDefault(server, List.of()).stream()
            .filter(s -> s.fraction() == fraction).mapToDouble(s -> s.step().latencyMs(99)).findFirst()
            .orElse(Double.NaN);
    }

    /** The fraction the p99s are compared at: the sweep's closest to {@link DiscretePreset#COMPARED_FRACTION}. */
    double comparedFraction() {
        double best = settings.sweep()[0];
        for (double fraction : settings.sweep()) {
            double target = DiscretePreset.COMPARED_FRACTION;
            if (Math.abs(fraction - target) < Math.abs(best - target)) {
                best = fraction;
            }
        }
        return best;
    }

    double withStreamsThroughput() {
        return withStreams.stream().mapToDouble(ClosedLoop::perSecond).average().orElse(Double.NaN);
    }

    /** The one-screen table. */
    String summary() {
        StringBuilder out = new StringBuilder();
        line(out, "Discrete requests, Rondo beside nginx in one run: %d files, mean %d B (sd %d B), random paths",
            files.count(), settings.meanBytes(), settings.sdBytes());
        line(out, "");
        double fraction = comparedFraction();
        line(out, "| nginx variant | conns | Rondo req/s | nginx req/s | ratio | p99 at %.0f%% (open) Rondo / nginx "
            + "| ratio |", fraction * 100);
        line(out, "|---|---|---|---|---|---|---|");
        boolean throughputMet = true;
        boolean p99Met = true;
        for (Nginx.Variant variant : closed.keySet()) {
            double rondo = throughput(variant, "rondo");
            double nginx = throughput(variant, variant.label());
            double rondoP99 = p99At(variant, "rondo", fraction);
            double nginxP99 = p99At(variant, variant.label(), fraction);
            throughputMet &= rondo / nginx >= TARGET_THROUGHPUT;
            p99Met &= rondoP99 / nginxP99 <= TARGET_P99;
            line(out, "| %s | %d | %,.0f | %,.0f | %.2fx | %.2f / %.2f ms | %.2fx |", variant.label(),
                DiscreteSettings.connections(variant), rondo, nginx, rondo / nginx, rondoP99, nginxP99,
                rondoP99 / nginxP99);
        }
        for (Nginx.Variant variant : closed.keySet()) {
            double baseline = throughput(variant, DiscretePreset.BASELINE);
            if (!Double.isNaN(baseline)) {
                double nginx = throughput(variant, variant.label());
                double baselineP99 = p99At(variant, DiscretePreset.BASELINE, fraction);
                double nginxP99 = p99At(variant, variant.label(), fraction);
                line(out, "| %s, Rondo baseline | %d | %,.0f | %,.0f | %.2fx | %.2f / %.2f ms | %.2fx |",
                    variant.label(), DiscreteSettings.connections(variant), baseline, nginx, baseline / nginx,
                    baselineP99, nginxP99, baselineP99 / nginxP99);
            }
        }
        line(out, "");
        line(out, "Targets: Rondo req/s >= %.1fx nginx's: %s; p99 <= %.1fx nginx's: %s", TARGET_THROUGHPUT,
            verdict(throughputMet), TARGET_P99, verdict(p99Met));
        if (streams != null) {
            double with = withStreamsThroughput();
            double nginxBest = 0;
            StringBuilder ratios = new StringBuilder();
            for (Nginx.Variant variant : closed.keySet()) {
                double nginx = throughput(variant, variant.label());
                nginxBest = Math.max(nginxBest, nginx);
                ratios.append(ratios.isEmpty() ? "" : " and ")
                    .append(String.format(Locale.ROOT, "%.2fx %s", with / nginx, variant.label()));
            }
            Object p99 = lateness("p99");
            line(out, "");
            line(out, "While %d streams of %.1f Mbit/s play: Rondo %,.0f req/s (c32) = %s without streams",
                settings.streams(), settings.streamBitrate() / 1e6, with, ratios);
            line(out, "  streams admitted %d of %d, rejected %d; late fragments (glitches) %d; lateness p99 %s ms "
                    + "(negative: before the deadline)", streams.admitted(), settings.streams(), streams.rejected(),
                streams.lateFragments(), p99);
            boolean streamsMet = with / nginxBest >= TARGET_WITH_STREAMS && streams.lateFragments() == 0
                && streams.admitted() == settings.streams();
            line(out, "Target: >= %.1fx nginx without streams, every stream admitted, 0 glitches: %s",
                TARGET_WITH_STREAMS, verdict(streamsMet));
        }
        return out.toString();
    }

    private Object lateness(String key) {
        Object late = streams.json().get("latenessMs");
        return late instanceof Map<?, ?> map ? map.get(key) : null;
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }

    /** Writes the JSON, the charts and the summary into {@code folder}. */
    void write(Path folder) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve(JSON).toFile(),
            json());
        Files.writeString(folder.resolve(SUMMARY), summary(), StandardCharsets.UTF_8);
        writeCdf(folder.resolve(CDF_CHART));
        writeThroughput(folder.resolve(THROUGHPUT_CHART));
    }

    Map<String, Object> json() {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("files", files.count());
        run.put("meanBytes", settings.meanBytes());
        run.put("sdBytes", settings.sdBytes());
        run.put("seed", settings.seed());
        run.put("warmupSeconds", settings.warmupNs() / 1e9);
        run.put("measureSeconds", settings.measureNs() / 1e9);
        run.put("clientThreads", settings.clientThreads());
        run.put("cores", Runtime.getRuntime().availableProcessors());
        root.put("run", run);
        Map<String, Object> variants = new LinkedHashMap<>();
        for (Nginx.Variant variant : closed.keySet()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("connections", DiscreteSettings.connections(variant));
            Map<String, Object> closedJson = new LinkedHashMap<>();
            closed.get(variant).forEach((server, steps) -> closedJson.put(server,
                steps.stream().map(ClosedLoop::json).toList()));
            entry.put("closed", closedJson);
            Map<String, Object> openJson = new LinkedHashMap<>();
            open.getOrDefault(variant, Map.of()).forEach((server, steps) -> openJson.put(server,
                steps.stream().map(s -> {
                    Map<String, Object> step = new LinkedHashMap<>();
                    step.put("fractionOfNginx", s.fraction());
                    step.putAll(s.step().json());
                    return step;
                }).toList()));
            entry.put("open", openJson);
            double rondo = throughput(variant, "rondo");
            double nginx = throughput(variant, variant.label());
            entry.put("throughputRatio", rondo / nginx);
            double fraction = comparedFraction();
            entry.put("p99RatioAtFraction", Map.of("fraction", fraction, "ratio",
                p99At(variant, "rondo", fraction) / p99At(variant, variant.label(), fraction)));
            variants.put(variant.label(), entry);
        }
        root.put("variants", variants);
        if (streams != null) {
            Map<String, Object> streamed = new LinkedHashMap<>();
            streamed.put("http", withStreams.stream().map(ClosedLoop::json).toList());
            streamed.put("streams", streams.json());
            root.put("withStreams", streamed);
        }
        root.put("rondoServeOutput", serverLog.lines().toList());
        return root;
    }

    private void writeCdf(Path file) throws IOException {
        double fraction = comparedFraction();
        XYChart chart = chart(String.format(Locale.ROOT, "Latency from the intended start, open load at %.0f%% of "
            + "nginx's throughput", fraction * 100), "latency [ms]", "fraction of requests answered within");
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
        for (Map.Entry<Nginx.Variant, Map<String, List<OpenStep>>> variant : open.entrySet()) {
            for (Map.Entry<String, List<OpenStep>> server : variant.getValue().entrySet()) {
                server.getValue().stream().filter(s -> s.fraction() == fraction).findFirst().ifPresent(s -> {
                    if (s.step().latencyUs().getTotalCount() == 0) {
                        return;
                    }
                    double[] x = new double[CDF_PERCENTILES.length];
                    double[] y = new double[CDF_PERCENTILES.length];
                    for (int i = 0; i < x.length; i++) {
                        x[i] = Math.max(0.001, s.step().latencyMs(CDF_PERCENTILES[i]));
                        y[i] = CDF_PERCENTILES[i] / 100;
                    }
                    String name = server.getKey().startsWith("rondo")
                        ? label(server.getKey()) + " (vs " + variant.getKey().label() + ", c"
                            + s.step().connections() + ")"
                        : variant.getKey().label() + " (c" + s.step().connections() + ")";
                    style(chart.addSeries(name, x, y), server.getKey());
                });
            }
        }
        save(chart, file);
    }

    private void writeThroughput(Path file) throws IOException {
        XYChart chart = chart("Throughput against offered load (open model)", "offered [req/s]",
            "answered [req/s]");
        double top = 1;
        for (Map.Entry<Nginx.Variant, Map<String, List<OpenStep>>> variant : open.entrySet()) {
            for (Map.Entry<String, List<OpenStep>> server : variant.getValue().entrySet()) {
                List<OpenStep> steps = server.getValue();
                double[] x = steps.stream().mapToDouble(s -> s.step().offeredPerSecond()).toArray();
                double[] y = steps.stream().mapToDouble(s -> s.step().achievedPerSecond()).toArray();
                for (double value : x) {
                    top = Math.max(top, value);
                }
                String name = server.getKey().startsWith("rondo") ? label(server.getKey()) + " ("
                    + variant.getKey().name().toLowerCase(Locale.ROOT) + " sweep)" : variant.getKey().label();
                style(chart.addSeries(name, x, y), server.getKey());
            }
        }
        chart.addSeries("offered = answered", new double[] {0, top}, new double[] {0, top})
            .setMarker(SeriesMarkers.NONE).setLineColor(Color.LIGHT_GRAY)
            .setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f},
                0f));
        save(chart, file);
    }

    private static XYChart chart(String title, String x, String y) {
        XYChart chart = new XYChartBuilder().width(960).height(560).title(title).xAxisTitle(x).yAxisTitle(y)
            .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        return chart;
    }

    /** A Rondo server's name in a chart's legend. */
    private static String label(String server) {
        return server.equals(DiscretePreset.BASELINE) ? "Rondo baseline" : "Rondo";
    }

    private static void style(org.knowm.xchart.XYSeries series, String server) {
        series.setMarker(SeriesMarkers.CIRCLE);
        if (server.equals(DiscretePreset.BASELINE)) {
            series.setMarker(SeriesMarkers.DIAMOND);
        } else if (!server.equals("rondo")) {
            series.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {8f, 4f}, 0f));
        }
    }

    private static void save(XYChart chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}

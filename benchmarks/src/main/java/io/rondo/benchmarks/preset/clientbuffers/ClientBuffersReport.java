package io.rondo.benchmarks.preset.clientbuffers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.scheduler.admission.BufferMode;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** papers/004 Figures 21-22 as a person reads them: a markdown table, JSON and a bar chart per disk and client kind. */
final class ClientBuffersReport {

    private ClientBuffersReport() {
    }

    /** {@code 256 KiB}, {@code 8 MiB}. */
    static String size(long bytes) {
        if (bytes >= 1 << 20) {
            return String.format(Locale.ROOT, bytes % (1 << 20) == 0 ? "%.0f MiB" : "%.1f MiB", bytes / 1048576.0);
        }
        return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
    }

    /**
     * One row per disk, client kind and fragment size: each mode's admitted streams, what stopped
     * them, and the late fragments.
     */
    static String markdown(List<BufferPoint> points, String description) {
        StringBuilder out = new StringBuilder();
        out.append("| disk | clients | buffer | round (fragment) | DblBuf | ClBuf | ClBufRate | ClBufRate / DblBuf "
            + "| late | "
            + "peak memory (DblBuf / ClBuf / ClBufRate) |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, Map<BufferMode, BufferPoint>> row : rows(points).entrySet()) {
            Map<BufferMode, BufferPoint> modes = row.getValue();
            BufferPoint any = modes.values().iterator().next();
            StringBuilder admitted = new StringBuilder();
            StringBuilder peaks = new StringBuilder();
            long late = 0;
            for (BufferMode mode : BufferMode.values()) {
                BufferPoint point = modes.get(mode);
                admitted.append(point == null ? "-" : point.admitted() + " (" + point.stoppedBy() + ")").append(" | ");
                peaks.append(peaks.length() == 0 ? "" : " / ")
                    .append(point == null ? "-" : size(point.peakUsedBytes()));
                late += point == null ? 0 : point.late();
            }
            BufferPoint dbl = modes.get(BufferMode.DOUBLE);
            BufferPoint rate = modes.get(BufferMode.CLIENT_RATE);
            String ratio = dbl == null || rate == null || dbl.admitted() == 0 ? "-"
                : String.format(Locale.ROOT, "%.1fx", (double) rate.admitted() / dbl.admitted());
            out.append("| ").append(any.disk()).append(" | ").append(any.clients()).append(" | ")
                .append(size(any.fragmentBytes())).append(" | ").append(any.roundMs()).append(" ms (")
                .append(String.format(Locale.ROOT, "%.0f kB", any.roundMs() * bitsPerSecond(any) / 8e6))
                .append(") | ").append(admitted)
                .append(ratio).append(" | ").append(late).append(" | ").append(peaks).append(" |\n");
        }
        out.append('\n').append(description).append('\n');
        return out.toString();
    }

    private static long bitsPerSecond(BufferPoint point) {
        return point.clients().equals("video") ? ClientBuffersPreset.VIDEO_BITS : ClientBuffersPreset.AUDIO_BITS;
    }

    /** Every point, and the run's settings, as JSON. */
    static void writeJson(Path file, Map<String, Object> settings, List<BufferPoint> points) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("settings", settings);
        List<Map<String, Object>> all = new ArrayList<>();
        for (BufferPoint point : points) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("disk", point.disk());
            one.put("clients", point.clients());
            one.put("fragmentBytes", point.fragmentBytes());
            one.put("roundMs", point.roundMs());
            one.put("mode", point.mode().label());
            one.put("admitted", point.admitted());
            one.put("stoppedBy", point.stoppedBy());
            one.put("answers", point.answers());
            one.put("late", point.late());
            one.put("endedOrFailed", point.guardEnded());
            one.put("peakUsedBytes", point.peakUsedBytes());
            one.put("sharedBytes", point.sharedBytes());
            one.put("playedRounds", point.playedRounds());
            all.add(one);
        }
        json.put("points", all);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /** A bar chart per disk and client kind: admitted streams per fragment size, a bar per mode; the files written. */
    static List<Path> writeCharts(Path folder, List<BufferPoint> points, long ceilingBytes) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, List<BufferPoint>> byChart = new TreeMap<>();
        for (BufferPoint point : points) {
            byChart.computeIfAbsent(point.disk() + "-" + point.clients(), k -> new ArrayList<>()).add(point);
        }
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, List<BufferPoint>> one : byChart.entrySet()) {
            BufferPoint any = one.getValue().get(0);
            CategoryChart chart = new CategoryChartBuilder().width(900).height(480)
                .title(String.format(Locale.ROOT, "Streams admitted under a %s ceiling: %s clients, %s disk",
                    size(ceilingBytes), any.clients(), any.disk()))
                .xAxisTitle("buffer size (the round's fragment fills it)").yAxisTitle("streams admitted").build();
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
            chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
            chart.getStyler().setChartBackgroundColor(Color.WHITE);
            chart.getStyler().setPlotBackgroundColor(Color.WHITE);
            chart.getStyler().setLabelsVisible(true);
            chart.getStyler().setYAxisDecimalPattern("0");
            Map<String, Map<BufferMode, BufferPoint>> rows = rows(one.getValue());
            List<String> labels = new ArrayList<>();
            rows.values().forEach(modes -> labels.add(size(modes.values().iterator().next().fragmentBytes())));
            for (BufferMode mode : BufferMode.values()) {
                List<Number> admitted = new ArrayList<>();
                rows.values().forEach(modes -> admitted.add(modes.containsKey(mode) ? modes.get(mode).admitted() : 0));
                chart.addSeries(mode.paperName(), labels, admitted);
            }
            Path file = folder.resolve("client-buffers-" + one.getKey() + ".png");
            Files.createDirectories(folder);
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            files.add(file);
        }
        return files;
    }

    /** The points by row (disk, clients, fragment size, in that order), each row's by mode. */
    private static Map<String, Map<BufferMode, BufferPoint>> rows(List<BufferPoint> points) {
        Map<String, Map<BufferMode, BufferPoint>> rows = new TreeMap<>();
        for (BufferPoint point : points) {
            String key = String.format(Locale.ROOT, "%s %s %012d", point.disk(), point.clients(),
                point.fragmentBytes());
            rows.computeIfAbsent(key, k -> new EnumMap<>(BufferMode.class)).put(point.mode(), point);
        }
        return rows;
    }
}

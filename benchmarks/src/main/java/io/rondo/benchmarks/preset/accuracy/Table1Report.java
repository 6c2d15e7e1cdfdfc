package io.rondo.benchmarks.preset.accuracy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.benchmarks.preset.accuracy.AdmissionAccuracy.PolicyResult;
import io.rondo.benchmarks.preset.accuracy.AdmissionAccuracy.RowResult;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Table 1 as a person reads it: a screen table, JSON, markdown and a grouped bar chart. */
final class Table1Report {

    /** The columns, in the paper's order, with Rondo's extra one last. */
    static final List<String> POLICIES = List.of("adm1", "adm2", "adm3", "xtream-adm2");

    private Table1Report() {
    }

    /** The table: the paper's figures beside Rondo's, and the admitted streams' missed fragments. */
    static String table(List<RowResult> rows) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-15s | %-18s | %-34s | %-16s | %s%n", "row",
            "paper MaxN/A1/A2/A3", "Rondo MaxN  Adm1  Adm2  Adm3  X-Adm2", "Adm2/MaxN paper", "missed A1/A2/A3/X"));
        for (RowResult row : rows) {
            Table1Row paper = row.row();
            out.append(String.format(Locale.ROOT, "%-15s | %4d %4d %4d %4s | %9d %5d %5d %5d %7d | %6.2f %8s | %s%n",
                paper.label(), paper.paperMaxN(), paper.paperAdm1(), paper.paperAdm2(),
                paper.paperAdm3() < 0 ? "n/a" : Integer.toString(paper.paperAdm3()), row.maxN(),
                admitted(row, "adm1"), admitted(row, "adm2"), admitted(row, "adm3"), admitted(row, "xtream-adm2"),
                row.policy("adm2").ratio(), String.format(Locale.ROOT, "%.2f", (double) paper.paperAdm2()
                    / paper.paperMaxN()), missed(row)));
        }
        return out.toString();
    }

    /** The same table in markdown. */
    static String markdown(List<RowResult> rows, String settings) {
        StringBuilder out = new StringBuilder("# papers/000 Table 1 on Rondo\n\n").append(settings).append("\n\n");
        out.append("| row | paper MaxN | paper Adm1 | paper Adm2 | paper Adm3 | MaxN | Adm1 | Adm2 | Adm3 | "
            + "XTREAM Adm2 | Adm1/MaxN | Adm2/MaxN | Adm3/MaxN | missed at Adm1/Adm2/Adm3/XTREAM Adm2 |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (RowResult row : rows) {
            Table1Row paper = row.row();
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s | %d | %d | %d | %d | %d | %.2f | %.2f | "
                    + "%.2f | %s |%n", paper.label(), paper.paperMaxN(), paper.paperAdm1(), paper.paperAdm2(),
                paper.paperAdm3() < 0 ? "n/a" : Integer.toString(paper.paperAdm3()), row.maxN(),
                admitted(row, "adm1"), admitted(row, "adm2"), admitted(row, "adm3"), admitted(row, "xtream-adm2"),
                row.policy("adm1").ratio(), row.policy("adm2").ratio(), row.policy("adm3").ratio(), missed(row)));
        }
        return out.toString();
    }

    /** Settings and rows as JSON. */
    static void writeJson(Path file, Map<String, Object> settings, List<RowResult> rows, double seconds)
        throws IOException {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("settings", settings);
        document.put("wallSeconds", seconds);
        List<Map<String, Object>> out = new ArrayList<>();
        for (RowResult row : rows) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("row", row.row().label());
            entry.put("type", row.row().type().name());
            entry.put("averageKBps", row.row().averageKBps());
            entry.put("paper", Map.of("maxN", row.row().paperMaxN(), "adm1", row.row().paperAdm1(),
                "adm2", row.row().paperAdm2(), "adm3", row.row().paperAdm3()));
            entry.put("maxN", row.maxN());
            entry.put("averageKBpsAtMaxN", row.averageKBps());
            entry.put("missedAboveMaxN", row.missedAboveMaxN());
            Map<String, Long> tried = new LinkedHashMap<>();
            row.tried().forEach((n, missed) -> tried.put(Integer.toString(n), missed));
            entry.put("missedByN", tried);
            Map<String, Object> policies = new LinkedHashMap<>();
            for (PolicyResult policy : row.policies()) {
                policies.put(policy.policy(), Map.of("admitted", policy.admitted(), "ratio", policy.ratio(),
                    "missed", policy.missed()));
            }
            entry.put("policies", policies);
            out.add(entry);
        }
        document.put("rows", out);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), document);
    }

    /** A grouped bar chart: per row, MaxN and what each policy admits. */
    static void writeChart(Path file, List<RowResult> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(520)
            .title("papers/000 Table 1 on the paper disk: MaxN and admitted streams")
            .xAxisTitle("row (average bit rate, mix)").yAxisTitle("streams").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setYAxisDecimalPattern("0");
        List<String> labels = rows.stream().map(r -> r.row().label()).toList();
        chart.addSeries("MaxN", labels, rows.stream().map(r -> (Number) r.maxN()).toList());
        chart.addSeries("Adm1", labels, rows.stream().map(r -> (Number) admitted(r, "adm1")).toList());
        chart.addSeries("Adm2 (Rondo)", labels, rows.stream().map(r -> (Number) admitted(r, "adm2")).toList());
        chart.addSeries("Adm3", labels, rows.stream().map(r -> (Number) admitted(r, "adm3")).toList());
        chart.addSeries("Adm2 (XTREAM)", labels, rows.stream().map(r -> (Number) admitted(r, "xtream-adm2")).toList());
        Files.createDirectories(file.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static int admitted(RowResult row, String policy) {
        return row.policy(policy).admitted();
    }

    private static String missed(RowResult row) {
        StringBuilder out = new StringBuilder();
        for (String policy : POLICIES) {
            out.append(out.length() == 0 ? "" : "/").append(row.policy(policy).missed());
        }
        return out.toString();
    }
}

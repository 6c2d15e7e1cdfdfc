package io.rondo.benchmarks.preset.combination;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The combination preset as a person reads it: a markdown table, JSON, and the streams in service over time. */
final class CombinationReport {

    private CombinationReport() {
    }

    /** One row per side, and the gain of combination on over off. */
    static String markdown(List<CombinationRun.Result> results, String description) {
        StringBuilder out = new StringBuilder("| combination | offered | admitted | in service at the end | "
            + "time cycle at the end | streams combined | late fragments | streams failed | operations | refused |\n"
            + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (CombinationRun.Result result : results) {
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.1f s | %d | %d | %d | %s | %s |%n",
                result.combination() ? "on" : "off", result.offered(), result.admitted(), result.inService(),
                result.cycleSeconds(), result.combined(), result.late(), result.failed(), result.operations(),
                result.refused()));
        }
        if (results.size() == 2 && results.get(0).admitted() > 0) {
            out.append(String.format(Locale.ROOT, "%nCombination on admits %+.0f%% streams (%d against %d).%n",
                100.0 * (results.get(1).admitted() - results.get(0).admitted()) / results.get(0).admitted(),
                results.get(1).admitted(), results.get(0).admitted()));
        }
        return out.append('\n').append(description).append('\n').toString();
    }

    static void writeJson(Path file, String description, List<CombinationRun.Result> results) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", description);
        json.put("results", results);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /** Streams in service round by round, each side, and the time cycle of the combining side on a second axis. */
    static void writeChart(Path file, List<CombinationRun.Result> results, long roundMs) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(480)
            .title(String.format(Locale.ROOT, "Streams in service, %d ms rounds on the emulated papers/001 disk "
                + "(papers/003 Figure 3)", roundMs))
            .xAxisTitle("seconds").yAxisTitle("streams in service").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(0);
        for (CombinationRun.Result result : results) {
            List<Double> seconds = new ArrayList<>();
            List<Integer> streams = new ArrayList<>();
            List<Double> cycle = new ArrayList<>();
            for (CombinationRun.Sample sample : result.samples()) {
                seconds.add(sample.seconds());
                streams.add(sample.streams());
                cycle.add(sample.cycleSeconds());
            }
            String side = result.combination() ? "combination on" : "combination off (fixed cycle)";
            chart.addSeries(side, seconds, streams);
            if (result.combination()) {
                XYSeries cycles = chart.addSeries("time cycle (s), combination on", seconds, cycle);
                cycles.setYAxisGroup(1);
                chart.setYAxisGroupTitle(1, "time cycle (s)");
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}

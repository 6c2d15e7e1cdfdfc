package io.rondo.server.cli;

import io.rondo.scheduler.sim.cycle.CombinationExperiment;
import io.rondo.scheduler.sim.cycle.CycleRun;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The charts of the papers/003 experiments, drawn as the paper draws them: Figures 3 and 4 over
 * time (memory, streams in service, and the cycle, which the paper only describes), Figure 5a
 * against the initial cycle, Figure 5b a bar per workload.
 */
final class CombinationChart {

    private static final int PANEL_WIDTH = 720;
    private static final int PANEL_HEIGHT = 520;

    private CombinationChart() {
    }

    static void write(CombinationExperiment experiment, List<CycleRun> runs, Path file) {
        List<Chart<?, ?>> panels = switch (experiment.name()) {
            case "fig5a" -> List.of(againstCycle(experiment, runs));
            case "fig5b" -> List.of(byWorkload(experiment, runs));
            default -> List.of(
                overTime(experiment, runs, "(a) buffer memory [MiB]", s -> s.memoryBytes() / (double) (1 << 20)),
                overTime(experiment, runs, "(b) streams in service", CycleRun.Sample::streams),
                overTime(experiment, runs, "cycle length [ms]", s -> s.cycleNs() / 1e6));
        };
        SimulationChart.writePanels(panels, PANEL_WIDTH, PANEL_HEIGHT, file);
    }

    private static XYChart overTime(CombinationExperiment experiment, List<CycleRun> runs, String what,
                                    ToDoubleFunction<CycleRun.Sample> value) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
            .title(experiment.name() + ": " + what).xAxisTitle("time [s]").yAxisTitle(what).build();
        style(chart.getStyler());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        for (CycleRun run : runs) {
            List<CycleRun.Sample> samples = run.samples();
            double[] x = new double[samples.size()];
            double[] y = new double[samples.size()];
            for (int i = 0; i < samples.size(); i++) {
                x[i] = samples.get(i).timeNs() / 1e9;
                y[i] = value.applyAsDouble(samples.get(i));
            }
            chart.addSeries(run.label(), x, y).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static XYChart againstCycle(CombinationExperiment experiment, List<CycleRun> runs) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
            .title(experiment.name() + ": streams admitted against the initial cycle")
            .xAxisTitle("initial cycle [s]").yAxisTitle("most streams in service").build();
        style(chart.getStyler());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setYAxisMin(0.0);
        for (String scheduler : List.of("fixed", "combination")) {
            List<CycleRun> series = runs.stream().filter(r -> r.scheduler().equals(scheduler)).toList();
            double[] x = series.stream().mapToDouble(r -> r.initialCycleNs() / 1e9).toArray();
            double[] y = series.stream().mapToDouble(CycleRun::peakStreams).toArray();
            chart.addSeries(scheduler.equals("fixed") ? "fixed cycle" : "stream combination", x, y)
                .setMarker(SeriesMarkers.CIRCLE);
        }
        return chart;
    }

    private static CategoryChart byWorkload(CombinationExperiment experiment, List<CycleRun> runs) {
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
            .title(experiment.name() + ": streams admitted by workload").xAxisTitle("workload")
            .yAxisTitle("most streams in service").build();
        style(chart.getStyler());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        for (String scheduler : List.of("fixed", "combination")) {
            List<CycleRun> series = runs.stream().filter(r -> r.scheduler().equals(scheduler)).toList();
            List<String> names = series.stream().map(r -> r.workload().substring(0, 2)).toList();
            List<Integer> streams = series.stream().map(CycleRun::peakStreams).toList();
            chart.addSeries(scheduler.equals("fixed") ? "fixed cycle (mean rate known)" : "stream combination",
                names, streams);
        }
        return chart;
    }

    private static void style(Styler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
    }
}

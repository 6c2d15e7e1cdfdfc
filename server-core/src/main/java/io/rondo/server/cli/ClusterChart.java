package io.rondo.server.cli;

import io.rondo.server.cluster.sim.PlacementResult;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The chart of {@code rondo simulate cluster}: a bar per scheme and cluster size for the busiest
 * node against the mean and the streams refused, both at the lowest demand simulated, and for the
 * objects a join moves against the share that is the joiner's due (1 when nothing else moves).
 */
final class ClusterChart {

    private static final int PANEL_WIDTH = 720;
    private static final int PANEL_HEIGHT = 520;

    private ClusterChart() {
    }

    static void write(List<PlacementResult> results, Path file) {
        String demand = String.format(Locale.ROOT, "%.0f%%", 100 * results.get(0).fills().get(0).demand());
        SimulationChart.writePanels(List.of(
            panel(results, "(a) busiest node / mean, " + demand + " demand", "busiest / mean",
                r -> r.fills().get(0).busiestToMean()),
            panel(results, "(b) streams refused with room, " + demand + " demand", "refused [%]",
                r -> 100 * r.fills().get(0).refusedShare()),
            panel(results, "(c) objects moved per join, against the joiner's fair share", "moved / (copies / nodes)",
                r -> r.churn().perJoin() / r.churn().idealPerJoin())), PANEL_WIDTH, PANEL_HEIGHT, file);
    }

    private static CategoryChart panel(List<PlacementResult> results, String title, String axis,
                                       ToDoubleFunction<PlacementResult> value) {
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
            .xAxisTitle("nodes").yAxisTitle(axis).build();
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        Set<String> schemes = new LinkedHashSet<>();
        Set<String> sizes = new LinkedHashSet<>();
        results.forEach(r -> {
            schemes.add(r.scheme());
            sizes.add(Integer.toString(r.nodes()));
        });
        for (String scheme : schemes) {
            List<PlacementResult> series = results.stream().filter(r -> r.scheme().equals(scheme)).toList();
            chart.addSeries(scheme, List.copyOf(sizes), series.stream().map(value::applyAsDouble).toList());
        }
        return chart;
    }
}

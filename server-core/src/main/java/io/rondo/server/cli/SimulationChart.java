package io.rondo.server.cli;

import io.rondo.scheduler.sim.Experiment;
import io.rondo.scheduler.sim.SimulationResult;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The chart of a simulated experiment, drawn as papers/001 draws Figures 9-11: mean D-response
 * time against the arrival rate, a line per policy, a panel per N. Saturated points are left
 * out: their mean only says how long the run lasted. The time axis is logarithmic so that the
 * gaps between policies at light load stay visible beside the climb towards saturation.
 */
final class SimulationChart {

    private static final int PANEL_WIDTH = 720;
    private static final int PANEL_HEIGHT = 520;

    private SimulationChart() {
    }

    static void write(Experiment experiment, List<SimulationResult> results, Path file) {
        List<Experiment.Panel> panels = experiment.panels();
        List<XYChart> charts = panels.stream().map(panel -> panel(experiment, panel.n(), results)).toList();
        writePanels(charts, PANEL_WIDTH, PANEL_HEIGHT, file);
    }

    /** Draws charts of one size side by side into one PNG file. */
    static void writePanels(List<? extends Chart<?, ?>> charts, int width, int height, Path file) {
        BufferedImage image = new BufferedImage(width * charts.size(), height, BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = image.createGraphics();
        try {
            graphics.setColor(Color.WHITE);
            graphics.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int p = 0; p < charts.size(); p++) {
                graphics.drawImage(BitmapEncoder.getBufferedImage(charts.get(p)), p * width, 0, null);
            }
        } finally {
            graphics.dispose();
        }
        try {
            if (!ImageIO.write(image, "png", file.toFile())) {
                throw new IOException("no PNG writer in this JVM");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chart " + file + ": " + e.getMessage(), e);
        }
    }

    private static XYChart panel(Experiment experiment, int n, List<SimulationResult> results) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
            .title(experiment.name() + ": " + experiment.base().discreteSize() + " D-requests, N = " + n)
            .xAxisTitle("D-request arrival rate lambda [1/s], " + experiment.base().disks() + " disks")
            .yAxisTitle("mean D-response time [ms]")
            .build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        chart.getStyler().setXAxisDecimalPattern("0");
        boolean any = false;
        for (Experiment.Series series : experiment.series()) {
            double[][] points = results.stream()
                .filter(r -> r.n() == n && SimulationReport.label(r).equals(series.label()) && !r.saturated()
                    && r.completed() > 0)
                .map(r -> new double[] {r.lambda(), r.meanMs()})
                .toArray(double[][]::new);
            if (points.length == 0) {
                continue;
            }
            double[] x = new double[points.length];
            double[] y = new double[points.length];
            for (int i = 0; i < points.length; i++) {
                x[i] = points[i][0];
                y[i] = points[i][1];
            }
            chart.addSeries(series.label(), x, y).setMarker(SeriesMarkers.CIRCLE);
            any = true;
        }
        if (!any) {
            chart.setTitle(chart.getTitle() + " (every point saturated)");
            chart.getStyler().setYAxisLogarithmic(false);
            chart.addSeries("saturated", new double[] {0}, new double[] {0});
        }
        return chart;
    }
}

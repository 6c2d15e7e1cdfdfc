package io.rondo.server.cli;

import io.rondo.scheduler.load.LoadResult;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The chart of a dummy-stream run, in the shape of papers/000 Figure 2: the slack each disk had
 * left in each round after its last C-request completed. A point below zero is a glitch.
 */
final class LoadChart {

    private LoadChart() {
    }

    static void write(LoadResult result, Path file) {
        XYChart chart = new XYChartBuilder().width(900).height(520)
            .title(String.format(Locale.ROOT, "Slack per round: N = %d, lambda = %.0f/s, %s",
                result.spec().streamsPerDisk(), result.spec().lambda(), result.mode()))
            .xAxisTitle("round")
            .yAxisTitle("slack after the last C-request [ms]")
            .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisDecimalPattern("0");
        double[][] slack = result.slackMs();
        for (int disk = 0; disk < slack.length; disk++) {
            double[] rounds = IntStream.range(0, slack[disk].length).asDoubleStream().toArray();
            chart.addSeries("disk " + disk, rounds, slack[disk]).setMarker(SeriesMarkers.NONE);
        }
        int length = slack.length == 0 ? 0 : slack[0].length;
        chart.addSeries("deadline", new double[] {0, Math.max(1, length - 1)}, new double[] {0, 0})
            .setMarker(SeriesMarkers.NONE).setLineColor(Color.RED);
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chart " + file + ": " + e.getMessage(), e);
        }
    }
}

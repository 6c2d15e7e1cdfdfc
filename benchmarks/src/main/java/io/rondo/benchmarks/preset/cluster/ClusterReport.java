package io.rondo.benchmarks.preset.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The cluster preset as a person reads it: two markdown tables, JSON, and each gap beside the buffer it ate into. */
final class ClusterReport {

    private ClusterReport() {
    }

    /** Three nodes' streams over one node's; 0 if one node admitted none. */
    static double ratio(List<ClusterRun.ScaleOut> scaleOut) {
        return scaleOut.get(0).admitted() == 0 ? 0 : (double) scaleOut.get(1).admitted() / scaleOut.get(0).admitted();
    }

    static String markdown(List<ClusterRun.ScaleOut> scaleOut, ClusterRun.Kill kill, long roundMs,
                           String description) {
        StringBuilder out = new StringBuilder("| nodes | streams admitted | per node | refusals that ended the ramp "
            + "| late fragments | streams failed |\n|---|---|---|---|---|---|\n");
        for (ClusterRun.ScaleOut row : scaleOut) {
            out.append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %d | %d |%n", row.nodes(), row.admitted(),
                perNode(row.perNode()), row.refused(), row.late(), row.failed()));
        }
        out.append(String.format(Locale.ROOT, "%nThree nodes admit **%.2fx** one node's streams (target >= %.1f).%n%n",
            ratio(scaleOut), ClusterPreset.TARGET_RATIO));
        List<Long> lengths = kill.gaps().stream().map(Player.GapSeen::lengthNs).toList();
        List<Long> held = kill.gaps().stream().map(Player.GapSeen::heldAheadNs).sorted().toList();
        long covered = kill.gaps().stream().filter(gap -> gap.lengthNs() <= gap.heldAheadNs()).count();
        long skipped = kill.gaps().stream().mapToLong(Player.GapSeen::fragmentsSkipped).sum();
        out.append("| streams playing | per node | killed | its streams | connections lost | resumed | gaps | "
                + "longest gap | p50 gap | players' buffer at the loss (min / p50) | gaps within the buffer | "
                + "fragments skipped | late fragments | objects lost |\n")
            .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
            .append(String.format(Locale.ROOT, "| %d | %s | %s | %d | %d | %d | %d | %s | %s | %s / %s | %d of %d | "
                    + "%d | %d | %d of %d |%n", kill.streams(), perNode(kill.perNode()), kill.killed(),
                kill.affectedOnNode(), kill.affected(), kill.resumed(), lengths.size(), seconds(at(lengths, 100)),
                seconds(at(lengths, 50)), seconds(at(held, 0)), seconds(at(held, 50)), covered, lengths.size(),
                skipped, kill.late(), kill.lost(), kill.objects()));
        out.append(String.format(Locale.ROOT, "%nA player's buffer is the media it held past its play position when "
            + "its connection was lost (playback from the first fragment's arrival, at the media's rate; a round is "
            + "%.1f s of media).%n", roundMs / 1000.0));
        if (!kill.failures().isEmpty()) {
            out.append("\nFailures:\n");
            kill.failures().forEach(failure -> out.append("- ").append(failure).append('\n'));
        }
        return out.append('\n').append(description).append('\n').toString();
    }

    /** What the run broke of issue 25's promises, one sentence each; none if it kept them. */
    static List<String> brokenPromises(List<ClusterRun.ScaleOut> scaleOut, ClusterRun.Kill kill, double ratio) {
        List<String> broken = new ArrayList<>();
        if (ratio(scaleOut) < ratio) {
            broken.add(String.format(Locale.ROOT, "three nodes admitted %.2fx one node's streams, under %.1fx",
                ratio(scaleOut), ratio));
        }
        for (ClusterRun.ScaleOut row : scaleOut) {
            if (row.late() > 0 || row.failed() > 0) {
                broken.add(String.format(Locale.ROOT, "%d node(s): %d fragments late, %d streams failed: an admitted "
                    + "stream must never glitch", row.nodes(), row.late(), row.failed()));
            }
        }
        if (kill.late() > 0) {
            broken.add(kill.late() + " fragments late while a node was killed");
        }
        if (kill.resumed() < kill.affectedOnNode() || kill.resumed() < kill.affected()) {
            broken.add(String.format(Locale.ROOT, "%s served %d streams, %d lost their connection, %d went on",
                kill.killed(), kill.affectedOnNode(), kill.affected(), kill.resumed()));
        }
        if (kill.lost() > 0) {
            broken.add(kill.lost() + " of " + kill.objects() + " objects not read back whole after the kill");
        }
        return broken;
    }

    static void writeJson(Path file, String description, List<ClusterRun.ScaleOut> scaleOut, ClusterRun.Kill kill)
        throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", description);
        json.put("scaleOut", scaleOut);
        json.put("ratio", ratio(scaleOut));
        json.put("kill", kill);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /** Each gap at the kill, longest first, beside the media its player held when the connection was lost. */
    static void writeChart(Path file, ClusterRun.Kill kill) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(900).height(480)
            .title("Streams of the killed node " + kill.killed() + ": each gap beside its player's buffer")
            .xAxisTitle("stream (longest gap first)").yAxisTitle("seconds").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        List<Integer> streams = new ArrayList<>();
        List<Double> gaps = new ArrayList<>();
        List<Double> held = new ArrayList<>();
        List<Player.GapSeen> longestFirst = new ArrayList<>(kill.gaps());
        Collections.reverse(longestFirst);
        for (Player.GapSeen gap : longestFirst) {
            streams.add(streams.size() + 1);
            gaps.add(gap.lengthNs() / 1e9);
            held.add(gap.heldAheadNs() / 1e9);
        }
        if (streams.isEmpty()) {
            streams.add(0);
            gaps.add(0.0);
            held.add(0.0);
        }
        chart.addSeries("gap: loss to the next fragment", streams, gaps);
        chart.addSeries("media the player held at the loss", streams, held);
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static String perNode(Map<String, Long> perNode) {
        List<String> parts = new ArrayList<>();
        perNode.forEach((node, streams) -> parts.add(node + " " + streams));
        return String.join(", ", parts);
    }

    /** The value at {@code percentile} of sorted {@code values} by nearest rank; 0 for none. */
    private static long at(List<Long> values, double percentile) {
        if (values.isEmpty()) {
            return 0;
        }
        int rank = (int) Math.ceil(percentile / 100 * values.size());
        return values.get(Math.max(0, Math.min(values.size() - 1, rank - 1)));
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }
}

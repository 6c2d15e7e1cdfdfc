package io.rondo.server.cli;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.sim.Experiment;
import io.rondo.scheduler.sim.SimulationResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The CSV file and the console table of a simulated experiment. */
final class SimulationReport {

    private SimulationReport() {
    }

    static void writeCsv(List<SimulationResult> results, Path file) {
        List<String> lines = new ArrayList<>(results.size() + 1);
        lines.add(SimulationResult.CSV_HEADER);
        results.forEach(result -> lines.add(result.csvRow()));
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    static void printTable(Experiment experiment, List<SimulationResult> results, DiskProfile disk,
                           PrintWriter out) {
        out.printf(Locale.ROOT, "%s%n%d disks of %s, %s D-requests, %d measured rounds, seed %d%n%n",
            experiment.title(), experiment.base().disks(), disk.name(), experiment.base().discreteSize(),
            experiment.base().rounds(), experiment.base().seed());
        String header = String.format(Locale.ROOT, "%-40s %3s %7s %9s %9s %9s %9s %8s %8s %5s %5s  %s",
            "policy", "N", "lambda", "mean ms", "p95 ms", "p99 ms", "max ms", "D/s", "glitches", "util", "C",
            "saturated");
        out.println(header);
        out.println("-".repeat(header.length()));
        for (SimulationResult r : results) {
            out.printf(Locale.ROOT, "%-40s %3d %7.1f %9.1f %9.1f %9.1f %9.1f %8.1f %8d %5.2f %5.2f  %s%n",
                label(r), r.n(), r.lambda(), r.meanMs(), r.p95Ms(), r.p99Ms(), r.maxMs(), r.throughput(),
                r.glitches(), r.utilization(), r.continuousShare(), r.saturated() ? "yes" : "");
        }
        out.println();
        out.println("Saturation: the highest arrival rate each policy sustained, and the first it did not");
        for (Map.Entry<String, String> line : saturation(results).entrySet()) {
            out.printf(Locale.ROOT, "  %-48s %s%n", line.getKey(), line.getValue());
        }
    }

    /** For each policy and N: the last sustained rate and the first saturated one. */
    static Map<String, String> saturation(List<SimulationResult> results) {
        Map<String, double[]> bounds = new LinkedHashMap<>();
        for (SimulationResult r : results) {
            double[] bound = bounds.computeIfAbsent(label(r) + ", N = " + r.n(),
                key -> new double[] {Double.NaN, Double.NaN});
            if (r.saturated()) {
                bound[1] = Double.isNaN(bound[1]) ? r.lambda() : Math.min(bound[1], r.lambda());
            } else if (Double.isNaN(bound[1]) || r.lambda() < bound[1]) {
                bound[0] = Double.isNaN(bound[0]) ? r.lambda() : Math.max(bound[0], r.lambda());
            }
        }
        Map<String, String> lines = new LinkedHashMap<>();
        bounds.forEach((key, bound) -> lines.put(key, String.format(Locale.ROOT, "%s, %s",
            Double.isNaN(bound[0]) ? "sustained none" : String.format(Locale.ROOT, "sustained %.0f/s", bound[0]),
            Double.isNaN(bound[1]) ? "never saturated" : String.format(Locale.ROOT, "saturated at %.0f/s", bound[1]))));
        return lines;
    }

    static String label(SimulationResult result) {
        return result.rotation().equals("omniscient") ? result.policy() + " (omniscient)" : result.policy();
    }
}

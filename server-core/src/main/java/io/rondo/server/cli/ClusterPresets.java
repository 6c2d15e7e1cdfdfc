package io.rondo.server.cli;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.cli.console.Progress;
import io.rondo.server.cluster.sim.ClusterSimulation;
import io.rondo.server.cluster.sim.ClusterWorkload;
import io.rondo.server.cluster.sim.PlacementResult;
import me.tongfei.progressbar.ProgressBar;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code rondo simulate cluster}: placement over clusters of 10, 100 and 1,000 nodes under Zipf
 * popularity (issue 25), rendezvous hashing with replicas and routing by headroom against
 * HAProxy's consistent hashing. A picocli mixin of {@link SimulateCommand}: its options, and the
 * run that writes {@code DIR/cluster.csv} and {@code DIR/cluster.png} and prints a table.
 */
final class ClusterPresets {

    /** The experiment's name on the command line. */
    static final String NAME = "cluster";

    static final String CSV_HEADER = "scheme,nodes,objects,demand,streams,refused,refused_share,hot_excess,off_owner,"
        + "busiest_to_mean,moved_per_join,ideal_per_join,moved_per_leave,ideal_per_leave";

    @Option(names = "--nodes", paramLabel = "N", split = ",",
        description = "cluster: cluster sizes, one run each (default: 10,100,1000).")
    private List<Integer> nodes;

    @Option(names = "--zipf", paramLabel = "S",
        description = "cluster: the Zipf exponent of the objects' popularity (default: 0.8).")
    private Double zipf;

    @Option(names = "--replicas", paramLabel = "R", split = ",",
        description = "cluster: replica counts of rendezvous placement to compare (default: 1,2,3).")
    private List<Integer> replicas;

    @Option(names = "--capacity", paramLabel = "STREAMS",
        description = "cluster: streams one node admits (default: 40).")
    private Integer capacity;

    @Option(names = "--objects-per-node", paramLabel = "COUNT",
        description = "cluster: objects in the library per node (default: 50).")
    private Integer objectsPerNode;

    @Option(names = "--balance-factor", paramLabel = "PERCENT",
        description = "cluster: HAProxy's hash-balance-factor to compare too, 0 for none (default: 150).")
    private Integer balanceFactor;

    /** True if any of these options was given: they shape only the cluster simulation. */
    boolean given() {
        return nodes != null || zipf != null || replicas != null || capacity != null || objectsPerNode != null
            || balanceFactor != null;
    }

    /** The workload the options shape. */
    ClusterWorkload workload(long seed) {
        ClusterWorkload d = ClusterWorkload.DEFAULT;
        return new ClusterWorkload(capacity == null ? d.capacity() : capacity,
            objectsPerNode == null ? d.objectsPerNode() : objectsPerNode, zipf == null ? d.zipf() : zipf,
            replicas == null ? d.replicas() : replicas, balanceFactor == null ? d.balanceFactor() : balanceFactor,
            d.demands(), d.churnEvents(), seed);
    }

    /** Runs the simulation and writes its files and table; the exit code. */
    int run(long seed, Path out, boolean quiet, PrintWriter stdout) {
        ClusterWorkload workload = workload(seed);
        List<Integer> sizes = nodes == null ? List.of(10, 100, 1000) : nodes;
        SimulateCommand.createFolder(out);
        NanoClock clock = SystemClocks.nanoClock();
        long startNs = clock.nanoTime();
        List<PlacementResult> results = new ArrayList<>();
        try (ProgressBar progress = quiet ? null : Progress.bar(NAME, sizes.size(), " sizes")) {
            for (int size : sizes) {
                results.addAll(ClusterSimulation.run(workload, size));
                if (progress != null) {
                    progress.step();
                }
            }
        }
        double seconds = (clock.nanoTime() - startNs) / 1e9;
        Path csv = out.resolve(NAME + ".csv");
        Path png = out.resolve(NAME + ".png");
        write(csv, csvRows(results));
        ClusterChart.write(results, png);
        printTable(workload, results, stdout);
        stdout.printf(Locale.ROOT, "%nwrote %s and %s (%d sizes in %.1f s)%n", csv, png, sizes.size(), seconds);
        stdout.flush();
        return 0;
    }

    static List<String> csvRows(List<PlacementResult> results) {
        List<String> rows = new ArrayList<>();
        rows.add(CSV_HEADER);
        for (PlacementResult r : results) {
            PlacementResult.Churn c = r.churn();
            for (PlacementResult.Fill f : r.fills()) {
                rows.add(String.format(Locale.ROOT, "%s,%d,%d,%.2f,%d,%d,%.5f,%d,%d,%.4f,%.5f,%.5f,%.5f,%.5f",
                    r.scheme(), r.nodes(), r.objects(), f.demand(), f.streams(), f.refused(), f.refusedShare(),
                    f.hotExcess(), f.offOwner(), f.busiestToMean(), c.perJoin(), c.idealPerJoin(), c.perLeave(),
                    c.idealPerLeave()));
            }
        }
        return rows;
    }

    static void printTable(ClusterWorkload workload, List<PlacementResult> results, PrintWriter out) {
        out.printf(Locale.ROOT, "Placement over a cluster: %d streams and %d objects a node, Zipf %.2f, streams "
                + "never end, seed %d%n%n", workload.capacity(), workload.objectsPerNode(), workload.zipf(),
            workload.seed());
        String header = String.format(Locale.ROOT, "%-22s %5s %6s %7s %12s %8s %8s %8s %18s %18s", "scheme", "nodes",
            "demand", "streams", "busiest/mean", "refused", "hot", "off-own", "moved/join (ideal)",
            "moved/leave (ideal)");
        out.println(header);
        out.println("-".repeat(header.length()));
        for (PlacementResult r : results) {
            PlacementResult.Churn c = r.churn();
            for (PlacementResult.Fill f : r.fills()) {
                out.printf(Locale.ROOT, "%-22s %5d %5.0f%% %7d %12.2f %7.1f%% %7.1f%% %7.1f%% %9.2f%% (%5.2f%%) "
                        + "%9.2f%% (%5.2f%%)%n", r.scheme(), r.nodes(), 100 * f.demand(), f.streams(),
                    f.busiestToMean(), 100 * f.refusedShare(), percent(f.hotExcess(), f.streams()),
                    percent(f.offOwner(), f.streams()), 100 * c.perJoin(), 100 * c.idealPerJoin(),
                    100 * c.perLeave(), 100 * c.idealPerLeave());
            }
        }
        out.println();
        out.println("busiest/mean: the busiest node's streams over the mean with no node ever full; refused: "
            + "refused while the cluster had room; hot: asked of objects beyond all their copies' nodes; "
            + "off-own: admitted by a node without the object.");
    }

    private static double percent(int part, int whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static void write(Path file, List<String> lines) {
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}

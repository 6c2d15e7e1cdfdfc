package io.rondo.server.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo simulate} as a user runs it: files written, a table printed, clear errors. */
class SimulateCommandTest {

    @TempDir
    Path out;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    /** The headline use: fig9 writes a CSV with the columns and a two-panel chart, in the paper's order. */
    @Test
    void fig9WritesTheCsvAndChartAndShowsThePapersOrdering() throws IOException {
        int exit = rondo("simulate", "fig9", "--out", out.toString(), "--rounds", "200", "-q");

        assertEquals(0, exit, stderr.toString());
        List<String> csv = Files.readAllLines(out.resolve("fig9.csv"));
        List<String> header = Arrays.asList(csv.get(0).split(","));
        assertTrue(header.containsAll(List.of("policy", "n", "lambda", "mean_ms", "p95_ms", "p99_ms", "max_ms",
            "glitches", "saturated")), csv.get(0));
        assertEquals(1 + 4 * (11 + 13), csv.size(), "one row per policy, N and lambda");

        BufferedImage chart = ImageIO.read(out.resolve("fig9.png").toFile());
        assertNotNull(chart, "fig9.png is a PNG");
        assertEquals(2 * 720, chart.getWidth(), "one panel per N");

        Map<String, Double> mean = new HashMap<>();
        Map<String, Boolean> saturated = new HashMap<>();
        int policy = header.indexOf("policy");
        int n = header.indexOf("n");
        int lambda = header.indexOf("lambda");
        for (String line : csv.subList(1, csv.size())) {
            String[] cells = line.split(",", -1);
            String key = cells[policy] + "/" + cells[n] + "/" + cells[lambda];
            saturated.put(key, Boolean.parseBoolean(cells[header.indexOf("saturated")]));
            if (!cells[header.indexOf("mean_ms")].isEmpty()) {
                mean.put(key, Double.parseDouble(cells[header.indexOf("mean_ms")]));
            }
            assertEquals("0", cells[header.indexOf("glitches")], "no policy glitches: " + line);
        }
        for (String point : List.of("3/30", "3/90", "3/150", "7/20", "7/50")) {
            double best = mean.get("mixed-incremental-scan/" + point);
            for (String other : List.of("disjoint-incremental-fcfs", "disjoint-incremental-scan", "mixed-gated-scan")) {
                assertTrue(best < mean.get(other + "/" + point),
                    "mixed-incremental-scan beats " + other + " at N/lambda " + point);
            }
        }
        assertAll(
            () -> assertTrue(saturated.get("disjoint-incremental-fcfs/3/240"), "FCFS saturates at N=3, 240/s"),
            () -> assertFalse(saturated.get("mixed-incremental-scan/3/240"), "SCAN sustains N=3, 240/s"));
        assertTrue(stdout.toString().contains("Saturation:"), stdout.toString());
        assertTrue(stdout.toString().contains("wrote " + out.resolve("fig9.csv")), stdout.toString());
    }

    /** One seed, one output: the CSV is the same byte for byte, run after run. */
    @Test
    void theSameSeedGivesTheSameCsv() throws IOException {
        Path first = out.resolve("first");
        Path second = out.resolve("second");
        String[] sweep = {"--lambda", "40,80", "--streams", "3", "--rounds", "60", "--warmup", "5", "-q",
            "--policy", "mixed-incremental-scan;period=disjoint-c-first,subrounds=2,order=scan"};
        assertEquals(0, rondo(concat(new String[] {"simulate", "custom", "--out", first.toString()}, sweep)),
            stderr.toString());
        assertEquals(0, rondo(concat(new String[] {"simulate", "custom", "--out", second.toString()}, sweep)),
            stderr.toString());

        byte[] csv = Files.readAllBytes(first.resolve("custom.csv"));
        assertEquals(new String(csv), new String(Files.readAllBytes(second.resolve("custom.csv"))));
        assertEquals(1 + 2 * 2, new String(csv).lines().count(), "two policies at two rates");
    }

    @Test
    void aRuledOutPolicyIsRefusedWithTheReasonAndNoStackTrace() {
        int exit = rondo("simulate", "custom", "--lambda", "30", "--policy", "period=mixed,order=fcfs",
            "--out", out.toString(), "-q");

        assertEquals(2, exit);
        assertTrue(stderr.toString().contains("one disk queue"), stderr.toString());
        assertFalse(stderr.toString().contains("\tat "), "no stack trace: " + stderr);
    }

    @Test
    void badFlagsGetAMessageThatSaysWhatIsExpected() {
        assertAll(
            () -> assertEquals(2, rondo("simulate", "custom", "--lambda", "ten", "--out", out.toString())),
            () -> assertEquals(2, rondo("simulate", "fig12", "--out", out.toString())),
            () -> assertEquals(2, rondo("simulate", "fig9", "--lambda", "30", "--out", out.toString())),
            () -> assertEquals(2, rondo("simulate", "custom", "--out", out.toString())),
            () -> assertEquals(2, rondo("simulate", "custom", "--lambda", "30", "--d-size", "pareto:1:1",
                "--out", out.toString())));
        String errors = stderr.toString();
        assertAll(
            () -> assertTrue(errors.contains("--lambda must be FROM:TO:STEP or a,b,c"), errors),
            () -> assertTrue(errors.contains("unknown experiment 'fig12'"), errors),
            () -> assertTrue(errors.contains("shape a custom sweep"), errors),
            () -> assertTrue(errors.contains("a custom sweep needs --lambda"), errors),
            () -> assertTrue(errors.contains("choose gamma or normal"), errors),
            () -> assertFalse(errors.contains("\tat "), "no stack trace: " + errors));
    }

    @Test
    void everyCommandHasHelp() {
        assertEquals(0, rondo("--help"));
        assertEquals(0, rondo("simulate", "--help"));
        String help = stdout.toString();
        assertTrue(help.contains("simulate") && help.contains("--lambda") && help.contains("fig11"), help);
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    /** cluster: two sizes, two replica counts and HAProxy's schemes, a row each per demand; one output a seed. */
    @Test
    void clusterWritesTheComparison() throws IOException {
        int exit = rondo("simulate", "cluster", "--nodes", "10,40", "--replicas", "1,2", "--zipf", "0.9",
            "--out", out.toString(), "-q");

        assertEquals(0, exit, stderr.toString());
        List<String> csv = Files.readAllLines(out.resolve("cluster.csv"));
        assertEquals(ClusterPresets.CSV_HEADER, csv.get(0));
        assertEquals(1 + 2 * 4 * 2, csv.size(), "sizes x schemes x demands: " + csv);
        assertTrue(csv.get(1).startsWith("rendezvous r=1,10,500,0.90,360,"), csv.get(1));
        assertTrue(csv.stream().anyMatch(row -> row.startsWith("haproxy chash bf150,40,2000,1.00,1600,")),
            csv.toString());
        BufferedImage chart = ImageIO.read(out.resolve("cluster.png").toFile());
        assertNotNull(chart, "cluster.png is a PNG");
        assertEquals(3 * 720, chart.getWidth(), "load, refusals, moves");
        assertTrue(stdout.toString().contains("Zipf 0.90"), stdout.toString());
        assertTrue(stdout.toString().contains("moved/join (ideal)"), stdout.toString());

        Path again = out.resolve("again");
        assertEquals(0, rondo("simulate", "cluster", "--nodes", "10,40", "--replicas", "1,2", "--zipf", "0.9",
            "--out", again.toString(), "-q"));
        assertEquals(csv, Files.readAllLines(again.resolve("cluster.csv")), "one seed, one output");
    }

    /** cluster's options are checked, and refused where they mean nothing. */
    @Test
    void clusterOptionsAreRefusedWithTheReason() {
        assertEquals(2, rondo("simulate", "cluster", "--replicas", "0", "--out", out.toString(), "-q"));
        assertTrue(stderr.toString().contains("replica counts must be 1 to 16"), stderr.toString());
        assertEquals(2, rondo("simulate", "cluster", "--nodes", "1", "--out", out.toString(), "-q"));
        assertTrue(stderr.toString().contains("a cluster needs at least 2 nodes"), stderr.toString());
        assertEquals(2, rondo("simulate", "fig9", "--nodes", "10", "--out", out.toString()));
        assertTrue(stderr.toString().contains("shape the cluster simulation"), stderr.toString());
        assertEquals(2, rondo("simulate", "cluster", "--duration", "60", "--out", out.toString()));
        assertTrue(stderr.toString().contains("shape the papers/003 experiments"), stderr.toString());
    }
}

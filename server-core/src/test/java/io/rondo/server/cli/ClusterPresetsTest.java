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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo simulate cluster} as a user runs it: a CSV, a chart, a table, one output a seed. */
class ClusterPresetsTest {

    @TempDir
    Path out;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    /** Two sizes, two replica counts and HAProxy's schemes: a row each per demand, the files, the table. */
    @Test
    void writesTheComparison() throws IOException {
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

    /** Its options are checked, and refused where they mean nothing. */
    @Test
    void badOptionsAreRefusedWithTheReason() {
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

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo simulate fig3|fig4|fig5a|fig5b} as a user runs it briefly: the papers/003 figures' files and claims. */
class CombinationPresetsTest {

    @TempDir
    Path out;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private List<Map<String, String>> simulate(String name, String... more) throws IOException {
        String[] args = {"simulate", name, "--out", out.toString(), "--duration", "300", "-q"};
        String[] all = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        int exit = RondoCommand.execute(all, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
        assertEquals(0, exit, stderr.toString());
        BufferedImage chart = ImageIO.read(out.resolve(name + ".png").toFile());
        assertNotNull(chart, name + ".png is a PNG");
        List<String> lines = Files.readAllLines(out.resolve(name + ".csv"));
        String[] header = lines.get(0).split(",");
        return lines.subList(1, lines.size()).stream().map(line -> {
            String[] cells = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
            }
            assertEquals("0", row.get("glitches"), "no glitch: " + line);
            assertEquals("0", row.get("late_ios"), "no IO past its cycle: " + line);
            return row;
        }).toList();
    }

    private static int peak(Map<String, String> row) {
        return Integer.parseInt(row.get("peak_streams"));
    }

    /** Figure 3: three panels over time, and combination well ahead of the fixed 500 ms cycle. */
    @Test
    void fig3() throws IOException {
        List<Map<String, String>> rows = simulate("fig3");

        assertEquals(List.of("fixed", "combination"), rows.stream().map(r -> r.get("scheduler")).toList());
        assertTrue(peak(rows.get(1)) >= 1.5 * peak(rows.get(0)), rows.toString());
        assertEquals(3 * 720, ImageIO.read(out.resolve("fig3.png").toFile()).getWidth(), "memory, streams, cycle");
        List<String> series = Files.readAllLines(out.resolve("fig3-series.csv"));
        assertEquals("scheduler,time_s,streams,combined,memory_mib,cycle_ms,u_m,u_t", series.get(0));
        assertTrue(series.size() > 600, "a row a cycle: " + series.size());
        assertTrue(stdout.toString().contains("streams over fixed 500 ms"), stdout.toString());
    }

    /** Figure 4: the fixed 5 s cycle fills the memory; combination shortens its cycle, admits about twice as many. */
    @Test
    void fig4() throws IOException {
        List<Map<String, String>> rows = simulate("fig4");

        assertTrue(Double.parseDouble(rows.get(0).get("peak_memory_mib")) > 120, "memory-bound: " + rows.get(0));
        assertTrue(peak(rows.get(1)) >= 1.9 * peak(rows.get(0)), rows.toString());
        assertTrue(Integer.parseInt(rows.get(1).get("final_cycle_ms")) < 5_000, rows.get(1).toString());
    }

    /** Figure 5a: ten initial cycles; the fixed cycle's curve has a best point, combination stays near it. */
    @Test
    void fig5a() throws IOException {
        List<Map<String, String>> rows = simulate("fig5a");

        assertEquals(20, rows.size());
        int best = rows.stream().filter(r -> r.get("scheduler").equals("fixed")).mapToInt(CombinationPresetsTest::peak)
            .max().orElseThrow();
        rows.stream().filter(r -> r.get("scheduler").equals("combination"))
            .forEach(r -> assertTrue(peak(r) >= 0.95 * best, r + " against the best fixed " + best));
        assertTrue(stdout.toString().contains("against the best fixed cycle"), stdout.toString());
    }

    /** Figure 5b: six workloads, the same cycle to start from, combination never behind. */
    @Test
    void fig5b() throws IOException {
        List<Map<String, String>> rows = simulate("fig5b", "--rate-unit", "kbit", "--memory", "equation2");

        assertEquals(12, rows.size());
        for (int i = 0; i < rows.size(); i += 2) {
            assertEquals(rows.get(i).get("initial_cycle_ms"), rows.get(i + 1).get("initial_cycle_ms"));
            assertTrue(peak(rows.get(i + 1)) >= peak(rows.get(i)), rows.get(i) + " / " + rows.get(i + 1));
        }
        assertTrue(stdout.toString().contains("128-1024 kbit/s"), stdout.toString());
        assertTrue(stdout.toString().contains("(Equation 2)"), stdout.toString());
    }

    /** Its options are checked, and refused where they mean nothing. */
    @Test
    void badOptionsAreRefusedWithTheReason() {
        int exit = RondoCommand.execute(new String[] {"simulate", "fig3", "--rate-unit", "mbit", "--out",
            out.toString()}, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
        assertEquals(2, exit, stderr.toString());
        assertTrue(stderr.toString().contains("--rate-unit must be kbyte or kbit"), stderr.toString());

        exit = RondoCommand.execute(new String[] {"simulate", "fig9", "--duration", "60", "--out", out.toString()},
            new PrintWriter(stdout, true), new PrintWriter(stderr, true));
        assertEquals(2, exit, stderr.toString());
        assertTrue(stderr.toString().contains("shape the papers/003 experiments"), stderr.toString());
    }
}

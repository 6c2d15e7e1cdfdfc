package io.rondo.server.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo load --dummy} as a user runs it. */
class LoadCommandTest {

    @TempDir
    Path dir;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    @Test
    void aSteppedDummyLoadReportsSlackAndAgreesWithTheSimulator() throws IOException {
        Path out = dir.resolve("out");
        int exit = rondo("load", "--dummy", "--stepped", "--disks", "2", "--lambda", "24", "--rounds", "300",
            "--dir", dir.resolve("data").toString(), "--file-size", "16M", "--out", out.toString(), "-q");

        assertEquals(0, exit, stderr.toString() + stdout);
        String report = stdout.toString();
        assertTrue(report.contains("0 glitches"), report);
        Matcher off = Pattern.compile("measured mean is ([+-][0-9.]+)% off").matcher(report);
        assertTrue(off.find(), report);
        assertTrue(Math.abs(Double.parseDouble(off.group(1))) < 10, "within 10% of the simulator: " + report);
        List<String> csv = Files.readAllLines(out.resolve("load.csv"));
        assertEquals("disk,round,slack_ms", csv.get(0));
        assertEquals(1 + 2 * 300, csv.size(), "one slack figure per disk and measured round");
        assertNotNull(ImageIO.read(out.resolve("load.png").toFile()), "the slack chart is a PNG");
    }

    @Test
    void contradictoryOrMissingFlagsAreRefusedPlainly() {
        assertEquals(2, rondo("load", "--dummy", "--real", "--stepped", "--dir", dir.toString()));
        assertEquals(2, rondo("load", "--lambda", "10"));
        assertEquals(2, rondo("load", "--dummy", "--file-size", "lots", "--dir", dir.toString()));
        String errors = stderr.toString();
        assertTrue(errors.contains("--stepped needs emulated disks"), errors);
        assertTrue(errors.contains("--dummy"), errors);
        assertTrue(errors.contains("--file-size must be a positive size"), errors);
        assertFalse(errors.contains("\tat "), "no stack trace: " + errors);
    }
}

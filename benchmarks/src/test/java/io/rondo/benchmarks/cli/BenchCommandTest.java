package io.rondo.benchmarks.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo bench}'s command line: presets by option or by name, and clear refusals. */
class BenchCommandTest {

    @Test
    void presetOptionBecomesTheSubcommand() {
        assertArrayEquals(new String[] {"discrete-vs-nginx", "--quick"},
            BenchCommand.presetAsSubcommand("--preset", "discrete-vs-nginx", "--quick"));
        assertArrayEquals(new String[] {"table1", "--out", "x"},
            BenchCommand.presetAsSubcommand("--preset=table1", "--out", "x"));
        assertArrayEquals(new String[] {"figure14"}, BenchCommand.presetAsSubcommand("figure14"));
    }

    @Test
    void anUnknownPresetIsABadUsageThatNamesTheChoices() {
        Captured run = Captured.run("--preset", "nope");
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("discrete-vs-nginx"), run.err);
    }

    @Test
    void aBadPresetOptionIsABadUsage() {
        Captured run = Captured.run("--preset", "discrete-vs-nginx", "--streams", "-1", "--work", "/nonexistent");
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("--streams"), run.err);
    }

    @Test
    void theHlsPresetRefusesANginxItDoesNotKnowAsABadUsage() {
        Captured run = Captured.run("hls", "--nginx", "apache", "--work", "/nonexistent");
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("unknown nginx variant 'apache'"), run.err);
    }

    @Test
    void noPresetPrintsTheUsage() {
        Captured run = Captured.run();
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("--preset NAME"), run.err);
    }

    private record Captured(int exit, String err) {

        static Captured run(String... args) {
            PrintStream saved = System.err;
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                int exit = BenchCommand.execute(args);
                return new Captured(exit, err.toString(StandardCharsets.UTF_8));
            } finally {
                System.setErr(saved);
            }
        }
    }
}

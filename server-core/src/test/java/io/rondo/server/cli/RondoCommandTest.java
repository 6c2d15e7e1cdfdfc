package io.rondo.server.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo --help} lists every command the launcher runs. */
class RondoCommandTest {

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    @Test
    void theHelpListsBenchBesideTheOtherCommands() {
        assertEquals(0, rondo("--help"));

        String help = stdout.toString();
        for (String command : new String[] {"serve", "play", "ingest", "ls", "simulate", "admin", "bench"}) {
            assertTrue(help.lines().anyMatch(line -> line.strip().startsWith(command + " ")), command + ":\n" + help);
        }
    }

    @Test
    void benchRunFromRondoJarSaysHowToRunIt() {
        assertEquals(2, rondo("bench", "--preset", "table1"));

        assertEquals("rondo bench: the load tests are in benchmarks.jar, not rondo.jar: run ./rondo bench --preset "
            + "table1 from the source checkout (it builds the jar first)", stderr.toString().strip());
    }
}

package io.rondo.server.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo serve} refuses plainly what it cannot do. Every serve here names all three ports (0 or
 * the one under test), so the tests pass beside a server running on the default ports 8080, 8554
 * and 8081.
 */
class ServeCommandTest {

    @TempDir
    Path data;

    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(stderr, true));
    }

    @Test
    void aPortInUseIsNamedWithWhatToDo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int exit = rondo("serve", "--data", data.toString(), "--port", Integer.toString(taken.getLocalPort()),
                "--stream-port", "0", "--admin-port", "0");

            assertEquals(1, exit);
            assertTrue(stderr.toString().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()),
                stderr.toString());
            assertTrue(stderr.toString().contains("choose one with --port"), stderr.toString());
            assertFalse(stderr.toString().contains("\tat "), stderr.toString());
        }
    }

    @Test
    void aPortOutOfRangeIsRefused() {
        assertEquals(2, rondo("serve", "--data", data.toString(), "--port", "70000", "--stream-port", "0",
            "--admin-port", "0"));
        assertTrue(stderr.toString().contains("--port must be between 0 and 65535"), stderr.toString());
        assertEquals(2, rondo("serve", "--data", data.toString(), "--port", "0", "--stream-port", "0",
            "--admin-port", "-1"));
        assertTrue(stderr.toString().contains("--admin-port must be between 0 and 65535"), stderr.toString());
        assertEquals(2, rondo("serve", "--data", data.toString(), "--port", "0", "--stream-port", "0",
            "--admin-port", "0", "--agent-port", "65536"));
        assertTrue(stderr.toString().contains("--agent-port must be between 0 and 65535"), stderr.toString());
    }

    @Test
    void aDiskProfileThatIsNoneIsAOneLineError() {
        Path missing = data.resolve("disk.json");

        assertEquals(2, rondo("serve", "--data", data.toString(), "--port", "0", "--stream-port", "0",
            "--admin-port", "0", "--disk-profile", missing.toString()));

        String err = stderr.toString().strip();
        assertEquals("rondo serve: --disk-profile must be measured, a built-in profile or a profile file: the disk "
            + "profile file " + missing + " does not exist; built-in profiles: [nerjes-1999]", err);
    }
}

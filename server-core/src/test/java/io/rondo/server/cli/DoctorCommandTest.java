package io.rondo.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.scheduler.device.DiskIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo doctor} as a user runs it: a JSON object a script can read, a report, clear errors. */
class DoctorCommandTest {

    @TempDir
    Path root;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    /**
     * On this machine: the reader the process chose, and O_DIRECT and FIEMAP as it offers them.
     * A build with -Dnative.skip has no native reader, so the test asserts that the answers agree
     * with the reader in use, not constants.
     */
    @Test
    void jsonTellsWhatTheReaderAndTheRootOffer() throws IOException {
        int exit = rondo("doctor", "--json", root.toString());

        assertEquals(0, exit, stdout + "\n" + stderr);
        JsonNode json = new ObjectMapper().readTree(stdout.toString());
        assertTrue(json.isObject(), stdout.toString());
        DiskIo io = DiskIo.best();
        boolean nativeReader = io.kind().equals("native");
        assertTrue(json.get("native").isBoolean() && json.get("odirect").isBoolean() && json.get("fiemap").isBoolean(),
            stdout.toString());
        assertEquals(nativeReader, json.get("native").asBoolean());
        assertEquals(io.kind(), json.get("reader").asText());
        assertEquals(nativeReader, json.get("nativeProblem").isNull(), "a reason exactly when not native");
        assertTrue(json.get("odirect").asBoolean(), "the temporary folder's file system takes O_DIRECT");
        assertEquals(nativeReader, json.get("fiemap").asBoolean(), "FIEMAP exactly with the native reader");
        assertTrue(json.get("ok").asBoolean());
        assertEquals(1, json.get("disks").size());
        JsonNode disk = json.get("disks").get(0);
        assertEquals(io.device(root).name(), disk.get("name").asText());
        assertEquals(io.device(root).id(), disk.get("device").asText());
        assertEquals(root.toString(), disk.get("roots").get(0).asText());
        assertTrue(disk.get("freeBytes").asLong() > 0);
        assertTrue(disk.get("logicalBlockSize").asInt() >= 512);
        assertTrue(disk.get("rotational").isBoolean());
        assertTrue(json.get("notes").isArray());
        assertEquals(0, json.get("problems").size(), stdout.toString());
        assertNothingLeftIn(root);
    }

    /** Two roots on one file system are one disk, and the report says that they were merged. */
    @Test
    void theReportShowsTwoRootsMergedIntoOneDisk() throws IOException {
        Path a = Files.createDirectory(root.resolve("a"));
        Path b = Files.createDirectory(root.resolve("b"));

        int exit = rondo("doctor", a.toString(), b.toString());

        assertEquals(0, exit, stdout + "\n" + stderr);
        String report = stdout.toString();
        assertTrue(report.contains("storage roots " + a + " and " + b + " are on one device"), report);
        assertTrue(report.contains("they form one disk"), report);
        assertTrue(report.contains("reader") && report.contains(DiskIo.best().kind()), report);
        assertTrue(report.contains("O_DIRECT  works (tried in both storage roots)"), report);
        assertTrue(report.contains("Everything Rondo needs works here."), report);
        assertNothingLeftIn(a);
        assertNothingLeftIn(b);
    }

    /** Without ROOT arguments the configuration's storage.roots are checked. */
    @Test
    void rootsComeFromTheConfigFile() throws IOException {
        Path data = Files.createDirectory(root.resolve("media"));
        Path config = Files.writeString(root.resolve("rondo.yaml"), "storage:\n  roots: [" + data + "]\n");

        int exit = rondo("doctor", "--json", "--config", config.toString());

        assertEquals(0, exit, stdout + "\n" + stderr);
        JsonNode json = new ObjectMapper().readTree(stdout.toString());
        assertEquals(data.toString(), json.get("disks").get(0).get("roots").get(0).asText());
        assertEquals(config.toString(), json.get("config").asText());
    }

    @Test
    void aMissingRootIsAOneLineError() {
        Path missing = root.resolve("missing");

        assertUsageError(rondo("doctor", missing.toString()), "storage root " + missing + " does not exist");
    }

    @Test
    void aFileAsRootIsAOneLineError() throws IOException {
        Path file = Files.writeString(root.resolve("file"), "x");

        assertUsageError(rondo("doctor", "--json", file.toString()), "storage root " + file + " is not a directory");
    }

    @Test
    void aConfigWithAnUnknownKeyIsAOneLineErrorNamingIt() throws IOException {
        Path config = Files.writeString(root.resolve("rondo.yaml"), "scheduler:\n  roundMS: 500\n");

        assertUsageError(rondo("doctor", "--config", config.toString(), root.toString()),
            "unknown key 'scheduler.roundMS'");
    }

    @Test
    void aMissingConfigIsAOneLineError() {
        assertUsageError(rondo("doctor", "--config", root.resolve("nope.yaml").toString(), root.toString()),
            "does not exist");
    }

    private void assertUsageError(int exit, String message) {
        assertEquals(2, exit, stdout + "\n" + stderr);
        String err = stderr.toString().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("rondo doctor: "), err);
        assertTrue(err.contains(message), err);
        assertFalse(err.contains("Exception"), "no stack trace: " + err);
        assertEquals("", stdout.toString());
    }

    private static void assertNothingLeftIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.noneMatch(file -> file.getFileName().toString().startsWith(".rondo-")),
                "no test file left in " + dir);
        }
    }
}

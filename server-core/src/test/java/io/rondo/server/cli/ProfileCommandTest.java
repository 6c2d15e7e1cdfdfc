package io.rondo.server.cli;

import io.rondo.scheduler.disk.DiskProfile;
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
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo profile} as a user runs it: a table, a fit, a profile and a chart; clear errors. */
class ProfileCommandTest {

    @TempDir
    Path dir;

    @TempDir
    Path out;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    @Test
    void profilesADirectoryIntoAProfileAndAChart() throws IOException {
        Path json = out.resolve("disk.json");

        int exit = rondo("profile", dir.toString(), "--size", "16M", "--max-io", "256K", "--out", json.toString(),
            "-q");

        assertEquals(0, exit, stdout + "\n" + stderr);
        String text = stdout.toString();
        assertTrue(text.contains("min MiB/s") && text.contains("mean MiB/s") && text.contains("access ms"), text);
        for (String size : List.of("4 KiB", "8 KiB", "16 KiB", "32 KiB", "64 KiB", "128 KiB", "256 KiB")) {
            assertTrue(text.contains(size + " "), "a row for " + size + ": " + text);
        }
        assertTrue(text.contains("Fit: t(s) = a + s/R"), text);
        assertTrue(text.contains(" writes ") && text.contains("Writes (each with fdatasync): a = "), text);
        assertTrue(text.contains("wrote " + json + " and " + out.resolve("disk.png")), text);
        DiskProfile profile = DiskProfile.load(json);
        assertTrue(profile.name().startsWith("measured-"), profile.name());
        assertEquals(16L << 20, profile.capacityBytes());
        assertEquals(7, profile.writeCurve().orElseThrow().rows().size(), "writes of the same seven sizes");
        BufferedImage chart = ImageIO.read(out.resolve("disk.png").toFile());
        assertNotNull(chart, "disk.png is a PNG");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count(), "the test and scratch files are gone");
        }
    }

    @Test
    void theProfileGoesIntoDirByDefault() {
        assertEquals(Path.of("d", "profile.png"), ProfileCommand.chartPath(Path.of("d", "profile.json")));
        assertEquals(Path.of("d", "disk.png"), ProfileCommand.chartPath(Path.of("d", "disk")));
    }

    @Test
    void aMissingDirIsAOneLineError() {
        Path missing = dir.resolve("missing");

        assertUsageError(rondo("profile", missing.toString()), "DIR " + missing + " does not exist");
    }

    @Test
    void aFileAsDirIsAOneLineError() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");

        assertUsageError(rondo("profile", file.toString()), "DIR " + file + " is a file, not a directory");
    }

    @Test
    void aSizeUnder16MIsAOneLineError() {
        assertUsageError(rondo("profile", dir.toString(), "--size", "1M"), "--size must be at least 16M");
        assertEquals(0, dir.toFile().list().length, "nothing written");
    }

    @Test
    void aBadMaxIoIsAOneLineError() {
        assertUsageError(rondo("profile", dir.toString(), "--max-io", "12K"), "--max-io must be a power of two");
    }

    private void assertUsageError(int exit, String message) {
        assertEquals(2, exit, stdout + "\n" + stderr);
        String err = stderr.toString().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("rondo profile: "), err);
        assertTrue(err.contains(message), err);
        assertFalse(err.contains("Exception"), "no stack trace: " + err);
    }
}

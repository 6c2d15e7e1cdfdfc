package io.rondo.benchmarks.preset.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.benchmarks.rig.Ffmpeg;
import io.rondo.benchmarks.rig.Nginx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each live preset, very briefly, against the checkout's rondo.jar (built before this module's
 * tests in the reactor), real ffmpeg and, for timeshift, a real nginx: the reports have figures.
 * Skipped, saying so, where one of them is missing.
 */
class LivePresetsTest {

    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private String home;

    @BeforeEach
    void theRigIsThere() throws IOException {
        Assumptions.assumeTrue(Files.isRegularFile(CHECKOUT.resolve("server-core/target/rondo.jar")),
            "server-core/target/rondo.jar is not built: the live presets' smoke runs are skipped");
        Ffmpeg.assumeInstalled("the live presets' smoke runs");
        home = System.getProperty("rondo.home");
        System.setProperty("rondo.home", CHECKOUT.toString());
        // nginx's workers run as an unprivileged user: they must be able to enter the test's folder.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void restoreHome() {
        if (home == null) {
            System.clearProperty("rondo.home");
        } else {
            System.setProperty("rondo.home", home);
        }
    }

    @Test
    void timeshiftReportsWriteAndReadJitterOfBothSides() throws IOException {
        Assumptions.assumeTrue(Nginx.available(), "nginx is not installed: the timeshift smoke run is skipped");
        Path out = dir.resolve("timeshift");

        int exit = new CommandLine(new TimeshiftPreset()).execute("--quick", "--duration", "6", "--behind", "4",
            "--greedy", "2", "--greedy-size", "1", "--work", dir.resolve("work").toString(), "--out", out.toString());

        assertEquals(0, exit);
        JsonNode json = new ObjectMapper().readTree(out.resolve(TimeshiftReport.JSON).toFile());
        JsonNode series = json.get("series");
        assertEquals(4, series.size(), series.toString());
        series.forEach(s -> assertTrue(s.get("count").asLong() > 0, "every series has figures: " + series));
        assertEquals(2, json.get("rondo").get("recordings").get("accepted").asInt());
        assertTrue(json.get("bestEffort").get("bytesWritten").asLong() > 0);
        assertTrue(Files.readString(out.resolve(TimeshiftReport.MARKDOWN)).contains("| rondo writes"));
        assertChart(out.resolve(TimeshiftReport.PNG));
    }

    @Test
    void liveCapacityReportsRecordingsViewersAndRefusals() throws IOException {
        Path out = dir.resolve("capacity");

        int exit = new CommandLine(new LiveCapacityPreset()).execute("--quick", "--recordings", "1", "--viewers", "2",
            "--duration", "3", "--behind", "2", "--ramp", "0", "--greedy", "1", "--greedy-size", "1", "--work",
            dir.resolve("work").toString(), "--out", out.toString());

        assertEquals(0, exit);
        JsonNode json = new ObjectMapper().readTree(out.resolve(LiveCapacityReport.JSON).toFile());
        JsonNode recordings = json.get("recordings");
        assertEquals(1, recordings.get("accepted").asInt() + recordings.get("refusedByReason").size(),
            recordings.toString());
        assertTrue(recordings.get("fragmentsDurable").asLong() > 0, recordings.toString());
        JsonNode viewers = json.get("viewers").get("streams");
        assertEquals(2, viewers.get("admitted").asInt() + viewers.get("rejected").asInt(), viewers.toString());
        assertTrue(json.get("series").get("writes: sent to DURABLE, per round").get("count").asLong() > 0);
        assertTrue(json.get("series").get(LiveCapacityReport.BEHIND_LIVE).get("count").asLong() > 0,
            "the viewer at the live edge is timed behind live: " + json.get("series"));
        assertTrue(json.get("serverLateWriteRounds").has("status"));
        assertTrue(Files.readString(out.resolve(LiveCapacityReport.MARKDOWN)).contains("| viewers admitted / asked |"));
        assertChart(out.resolve(LiveCapacityReport.PNG));
    }

    private static void assertChart(Path png) throws IOException {
        BufferedImage chart = ImageIO.read(png.toFile());
        assertNotNull(chart, "a PNG");
        assertEquals(900, chart.getWidth());
    }
}

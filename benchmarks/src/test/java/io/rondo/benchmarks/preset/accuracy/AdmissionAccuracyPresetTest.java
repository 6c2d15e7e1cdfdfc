package io.rondo.benchmarks.preset.accuracy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionAccuracyPresetTest {

    @TempDir
    Path dir;

    @Test
    void theQuickRunWritesJsonMarkdownAndAChart() throws IOException {
        Path out = dir.resolve("table1");

        int exit = new CommandLine(new AdmissionAccuracyPreset()).execute("--quick", "--no-progress", "--out",
            out.toString());

        assertEquals(0, exit);
        JsonNode json = new ObjectMapper().readTree(out.resolve("table1.json").toFile());
        assertEquals(AdmissionAccuracyPreset.QUICK_ROUNDS, json.get("settings").get("rounds").asInt());
        assertEquals(3, json.get("rows").size(), "C, V and H at 1000 kB/s");
        for (JsonNode row : json.get("rows")) {
            int maxN = row.get("maxN").asInt();
            JsonNode adm2 = row.get("policies").get("adm2");
            assertTrue(maxN > 0, row.toString());
            assertTrue(adm2.get("admitted").asInt() <= maxN, row.toString());
            assertEquals(0, adm2.get("missed").asLong(), row.toString());
            assertEquals(1000, row.get("averageKBps").asInt());
        }
        String markdown = Files.readString(out.resolve("table1.md"));
        assertTrue(markdown.contains("| 1000 kB/s V | 23 | 11 | 12 | 15 |"), markdown);
        assertTrue(markdown.contains("| row | paper MaxN |"), markdown);
        BufferedImage chart = ImageIO.read(out.resolve("table1.png").toFile());
        assertNotNull(chart, "a PNG");
        assertEquals(1100, chart.getWidth());
    }

    @Test
    void roundsAndSeedsMustBePositive() {
        assertEquals(CommandLine.ExitCode.USAGE,
            new CommandLine(new AdmissionAccuracyPreset()).execute("--rounds", "0", "--out", dir.toString()));
    }
}

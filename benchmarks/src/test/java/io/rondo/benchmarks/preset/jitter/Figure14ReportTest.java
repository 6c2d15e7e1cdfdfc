package io.rondo.benchmarks.preset.jitter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.paced.InterarrivalJitter;
import io.rondo.benchmarks.rig.Nginx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Figure14ReportTest {

    @TempDir
    Path dir;

    private static DelayLog log(long... delaysNs) {
        DelayLog log = new DelayLog();
        for (long d : delaysNs) {
            log.record(d, 1_000);
        }
        return log;
    }

    @Test
    void writesTheTableTheJsonAndTheChart() throws Exception {
        InterarrivalJitter rfc = new InterarrivalJitter();
        rfc.arrived(0, 10);
        rfc.arrived(100, 126);
        DelayLog rondoStreams = log(100_000, 200_000, 1_500_000);
        rondoStreams.streamEnded(rfc);
        Phase rondo = new Phase("rondo", true, rondoStreams, log(100_000_000, 800_000_000), 400_000_000,
            2_000_000_000L, 2, 0, 1_000, 0, Map.of());
        Phase nginx = new Phase("nginx-directio", false, log(600_000, 6_000_000, 300_000_000), log(1_000_000_000),
            1_000_000_000, 2_000_000_000L, 2, -1, Double.NaN, -1, Map.of());
        Figure14Report report = new Figure14Report(Map.of("streams", 2), List.of(rondo, nginx),
            List.of("rondo: page cache dropped before the phase"), 30_000_000_000L);
        report.write(dir);

        JsonNode json = new ObjectMapper().readTree(dir.resolve(Figure14Report.JSON).toFile());
        JsonNode phases = json.get("phases");
        assertEquals(2, phases.size());
        assertEquals(3, phases.get(0).get("pacedReads").get("count").asLong());
        assertEquals(0, phases.get(0).get("pacedReads").get("laterThan5Ms").asLong());
        assertEquals(2, phases.get(1).get("pacedReads").get("laterThan5Ms").asLong());
        assertEquals(1, phases.get(1).get("pacedReads").get("laterThan100Ms").asLong());
        assertEquals(200.0, phases.get(0).get("greedyReads").get("megabytesPerSecond").asDouble(), 1e-9);
        assertEquals(1e-6, phases.get(0).get("pacedReads").get("rfc3550JitterMsByStream").get(0).asDouble(), 1e-12);
        assertTrue(phases.get(0).get("pacedReads").get("laterThanCurveMs").size() > 10);

        String md = Files.readString(dir.resolve(Figure14Report.MARKDOWN));
        assertTrue(md.contains("| rondo | stream, guaranteed | 3 |"), md);
        assertTrue(md.contains("| nginx-directio | greedy GET | 1 |"), md);
        byte[] png = Files.readAllBytes(dir.resolve(Figure14Report.PNG));
        assertEquals((byte) 0x89, png[0]);
        assertEquals('P', png[1]);
        assertTrue(report.text().contains("2 streams admitted, 0 DATA after their deadline, 0 reads waited"),
            report.text());
    }

    @Test
    void quickIsASmallRunOnTheSamePathAndOptionsOverrideIt() {
        JitterPreset preset = new JitterPreset();
        new CommandLine(preset).parseArgs("--quick", "--streams", "3");
        JitterSettings quick = preset.settings();
        assertEquals(3, quick.streams());
        assertEquals(8, quick.greedy());
        assertEquals(5, quick.durationSeconds());
        assertEquals(List.of(Nginx.Variant.DIRECTIO), quick.variants());

        JitterPreset full = new JitterPreset();
        new CommandLine(full).parseArgs();
        assertEquals(List.of(Nginx.Variant.DIRECTIO, Nginx.Variant.SENDFILE), full.settings().variants());
        assertEquals(256, full.settings().greedyMib());
        assertEquals(10_240, full.settings().blockBytes());

        JitterPreset bad = new JitterPreset();
        new CommandLine(bad).parseArgs("--streams", "0");
        assertThrows(CommandLine.ParameterException.class, bad::settings);
    }
}

package io.rondo.benchmarks.preset.hls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hls preset's results as a person reads them: a row a phase in the table and the CSV, and the chart. */
class HlsReportTest {

    private static final long MS = 1_000_000L;

    @Test
    void eachPhaseIsARowWithItsPercentilesLatePartsRefusalsAndSources(@TempDir Path out) throws Exception {
        SessionLog rondo = new SessionLog();
        rondo.admitted();
        rondo.refused("the disks have no room");
        for (int k = 1; k <= 100; k++) {
            rondo.part(0, k * MS, 1000 * MS, 250_000);
        }
        SessionLog nginx = new SessionLog();
        nginx.admitted();
        nginx.admitted();
        nginx.part(0, 5 * MS, 1000 * MS, 250_000);
        nginx.part(0, 1500 * MS, 1000 * MS, 250_000);
        nginx.failed("a part, bytes 0-9 of /hls-0.mp4, answered 200 with 10 bytes");
        HlsReport report = new HlsReport(Map.of("sessions", 2), 8, List.of(
            new HlsPhase("rondo", false, 2, rondo, new HlsMeters.Parts(98, 2), 0, 0),
            new HlsPhase("nginx-sendfile", true, 2, nginx, null, 800_000_000L, 2_000_000_000L)), null, 1);
        report.write(out);
        List<String> csv = Files.readAllLines(out.resolve(HlsReport.CSV));
        assertEquals(3, csv.size());
        String[] row = csv.get(1).split(",");
        assertEquals(List.of("rondo", "0", "2", "1", "1", "100"), List.of(row).subList(0, 6));
        assertEquals(50, Double.parseDouble(row[6]), 0.1, "p50 ms, to the histogram's 3 digits");
        assertEquals(99, Double.parseDouble(row[7]), 0.1, "p99 ms");
        assertEquals(100, Double.parseDouble(row[8]), 0.1, "max ms");
        assertEquals(List.of("0", "0", "98", "2", "0.0"), List.of(row).subList(9, 14));
        row = csv.get(2).split(",");
        assertEquals(List.of("nginx-sendfile", "8", "2", "2", "0", "2"), List.of(row).subList(0, 6));
        assertEquals(1500, Double.parseDouble(row[7]), 1, "p99 ms");
        assertEquals(List.of("1", "1", "-1", "-1", "400.0"), List.of(row).subList(9, 14));
        String table = Files.readString(out.resolve(HlsReport.MARKDOWN));
        assertTrue(table.contains("| rondo | 2 | 1 | 100 | 50.0 | 99.0 | 100.0 | 0 | 0 | 98 / 2 |"), table);
        assertTrue(table.contains("| nginx-sendfile + 8 greedy | 2 | 0 | 2 |"), table);
        assertTrue(table.contains("rondo: the first refusal said \"the disks have no room\""), table);
        assertTrue(table.contains("answered 200 with 10 bytes"), table);
        assertEquals(1, report.failedAnswers());
        assertTrue(Files.size(out.resolve(HlsReport.PNG)) > 1000);
        assertTrue(Files.readString(out.resolve(HlsReport.JSON)).contains("\"serverPartsFromMemory\" : 98"));
    }
}

package io.rondo.benchmarks.load.stream;

import io.rondo.benchmarks.load.stream.LoadResults.Outcome;
import io.rondo.benchmarks.load.stream.LoadResults.StreamRecord;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.RejectReason;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadSummaryTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final int BYTES = 250_000;

    private final LoadSettings settings = new LoadSettings("127.0.0.1", 18181, "videos/clip.mp4", 4, 10 * S, 60 * S,
        new ClientProfile(4 << 20, 16 << 20), false, 1);

    /** Four streams: two played (one with a fragment 12 ms late), one rejected, one admitted that met an ERROR. */
    private LoadResults synthetic(boolean oneLate) {
        LoadResults results = new LoadResults(4, 0, 70 * S);
        for (int i = 0; i < 4; i++) {
            results.streamOpened();
        }
        results.accepted(3 * MS);
        results.accepted(5 * MS);
        results.accepted(4 * MS);
        results.firstData(40 * MS);
        results.firstData(60 * MS);
        for (int second = 1; second <= 3; second++) {
            results.fragment(-900 * MS, BYTES, second * S);
            results.fragment(oneLate && second == 3 ? 12 * MS : -800 * MS, BYTES, second * S + 500 * MS);
        }
        results.rejected(RejectReason.DISK_TIME, "disk 0 has no time left in its round");
        results.error(ErrorCode.READ_FAILED.code(), "disk 0: I/O error");
        results.streamEnded(new StreamRecord(0, Outcome.ENDED, null, true, 0, 2_000_000, 3, 3L * BYTES, 0, 0, 0,
            3 * MS, 40 * MS, 2 * S, 2 * S, 0, 0, 0));
        results.streamEnded(new StreamRecord(1, Outcome.CLOSED, null, true, 0, 2_000_000, 3, 3L * BYTES,
            oneLate ? 1 : 0, 0, 0, 5 * MS, 60 * MS, 2 * S, 2 * S + 20 * MS, 0, 0, 0));
        results.streamEnded(new StreamRecord(2, Outcome.REJECTED, "DISK_TIME: disk 0 has no time left in its round",
            false, 1, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0));
        results.streamEnded(new StreamRecord(3, Outcome.ERROR, "READ_FAILED: disk 0: I/O error", true, 0,
            2_000_000, 0, 0, 0, 0, 0, 4 * MS, -1, 0, 0, 0, 0, 0));
        return results;
    }

    @Test
    void summarySaysPlainlyThatAFragmentWasLate() {
        LoadSummary summary = LoadSummary.of(settings, synthetic(true));
        String text = summary.text();

        assertEquals(3, summary.admitted());
        assertEquals(1, summary.rejected());
        assertEquals(1, summary.lateFragments());
        assertEquals(1.0 / 6, summary.lateShare(), 1e-9);
        assertTrue(text.contains("3 admitted, 1 rejected, 1 failed or unanswered, of 4"), text);
        assertTrue(text.contains("DISK_TIME") && text.contains("\"disk 0 has no time left in its round\""), text);
        assertTrue(text.contains("READ_FAILED") && text.contains("\"disk 0: I/O error\""), text);
        assertTrue(text.contains("LATE: 1 of 6 fragments arrived after their deadline"), text);
        assertTrue(text.contains("max 12.0 ms"), text);
        assertTrue(text.contains("OPEN to ACCEPT p50 4.0 ms"), text);
        assertTrue(text.split("\n").length <= 24, "one screen:\n" + text);
    }

    @Test
    void summarySaysSoWhenNoFragmentWasLate() {
        String text = LoadSummary.of(settings, synthetic(false)).text();
        assertTrue(text.contains("every fragment arrived, in order, and none was late"), text);
        assertFalse(text.contains("LATE"), text);
        assertTrue(text.contains("max -800.0 ms"), text);
    }

    @Test
    void summaryNeverCallsARunWithMissingFragmentsClean() {
        LoadResults results = synthetic(false);
        results.streamEnded(new StreamRecord(4, Outcome.ENDED, null, true, 0, 2_000_000, 2, 2L * BYTES, 0, 3, 0,
            3 * MS, 40 * MS, 2 * S, 2 * S, 0, 0, 0));
        String text = LoadSummary.of(settings, results).text();
        assertTrue(text.contains("MISSING: 3 fragments of admitted streams never arrived"), text);
        assertFalse(text.contains("none was late"), text);
        assertFalse(text.contains("LATE:"), text);
    }

    @Test
    void streamsThatReconnectedAreCountedWithTheirLongestGap() {
        LoadResults results = synthetic(false);
        assertFalse(LoadSummary.of(settings, results).text().contains("reconnect "), "no line when none did");
        results.streamEnded(new StreamRecord(4, Outcome.ENDED, null, true, 0, 2_000_000, 2, 2L * BYTES, 0, 0, 0,
            3 * MS, 40 * MS, 2 * S, 2 * S, 2, 2, 700 * MS));
        results.streamEnded(new StreamRecord(5, Outcome.ENDED, null, true, 0, 2_000_000, 2, 2L * BYTES, 0, 0, 0,
            3 * MS, 40 * MS, 2 * S, 2 * S, 1, 1, 1_200 * MS));
        LoadSummary summary = LoadSummary.of(settings, results);
        assertTrue(summary.text().contains("reconnect    2 streams lost their connection and opened again 3 times; "
            + "3 gaps, the longest 1200.0 ms"), summary.text());
        assertEquals(Map.of("streams", 2L, "reconnects", 3L, "gaps", 3L, "longestGapMs", 1200.0),
            summary.json().get("reconnects"));
    }

    @Test
    void receiveRateAndMediaWallRatioComeFromTheStreams() {
        LoadSummary summary = LoadSummary.of(settings, synthetic(false));
        assertEquals(2 * BYTES * 8.0, summary.meanReceiveBitsPerSecond(), 1e-6);
        assertEquals(2 * BYTES * 8.0, summary.peakReceiveBitsPerSecond(), 1e-6);
        assertEquals(2.0 / 2.02, summary.mediaWallRatioMedian(), 1e-9);
        assertTrue(summary.text().contains("media/wall   p50 0.990  min 0.990  max 1.000 over 2 streams"),
            summary.text());
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonCarriesTheSameFigures() {
        Map<String, Object> json = LoadSummary.of(settings, synthetic(true)).json();
        Map<String, Object> streams = (Map<String, Object>) json.get("streams");
        Map<String, Object> fragments = (Map<String, Object>) json.get("fragments");
        Map<String, Object> lateness = (Map<String, Object>) json.get("latenessMs");
        Map<String, Object> rejects = (Map<String, Object>) json.get("rejects");
        assertEquals(3L, streams.get("admitted"));
        assertEquals(6L, fragments.get("received"));
        assertEquals(1L, fragments.get("late"));
        assertEquals(12.0, (Double) lateness.get("max"), 1e-9);
        assertEquals(1L, ((Map<String, Object>) rejects.get("DISK_TIME")).get("count"));
        assertEquals(4, ((List<Object>) json.get("each")).size());
    }

    @Test
    void quantilesAreByNearestRank() {
        double[] sorted = {0.9, 1.0, 1.1};
        assertEquals(0.9, LoadSummary.quantile(sorted, 0));
        assertEquals(1.0, LoadSummary.quantile(sorted, 0.5));
        assertEquals(1.1, LoadSummary.quantile(sorted, 1));
        assertTrue(Double.isNaN(LoadSummary.quantile(new double[0], 0.5)));
    }
}

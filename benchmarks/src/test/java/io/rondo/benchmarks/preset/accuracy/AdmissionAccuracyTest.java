package io.rondo.benchmarks.preset.accuracy;

import io.rondo.benchmarks.preset.accuracy.AdmissionAccuracy.RowResult;
import io.rondo.benchmarks.preset.accuracy.AdmissionAccuracy.Settings;
import io.rondo.scheduler.disk.DiskProfile;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every Table 1 row on the emulated paper disk, 2000 rounds and two seeds per N: ADM2 admits no
 * more than MaxN and its streams miss nothing; MaxN + 1 does miss; and ADM2 is at least as good
 * as XTREAM's own Adm2, and better where it charges every stream its peak.
 */
class AdmissionAccuracyTest {

    private static final Settings SETTINGS = new Settings(DiskProfile.paperDisk(), 1_000_000_000L, 0.2, 2000,
        List.of(1L, 2L), 1, Table1Row.paperRows());

    private static final List<RowResult> RESULTS = AdmissionAccuracy.measure(SETTINGS, row -> { });

    @Test
    void adm2NeverAdmitsAStreamThatThenMissesItsRound() {
        for (RowResult row : RESULTS) {
            String label = row.row().label();
            assertTrue(row.maxN() >= 1, label);
            assertTrue(row.missedAboveMaxN() > 0, label + ": MaxN + 1 misses");
            assertEquals(0, row.tried().get(row.maxN()), label + ": MaxN misses nothing");
            assertTrue(row.policy("adm2").admitted() <= row.maxN(), label);
            assertEquals(0, row.policy("adm2").missed(), label);
            assertEquals(0, row.policy("adm1").missed(), label);
            assertTrue(row.policy("adm1").admitted() <= row.policy("adm2").admitted(), label);
            assertTrue(row.policy("adm2").admitted() >= row.policy("xtream-adm2").admitted(), label);
        }
    }

    /** The rows where XTREAM's Adm2 falls shortest: ADM2 takes them to MaxN, or within a stream of it. */
    @Test
    void adm2ComesCloseToMaxNWhereXtreamsAdm2DoesNot() {
        RowResult vbr250 = RESULTS.get(3);
        assertEquals("250 kB/s V", vbr250.row().label());
        assertTrue(vbr250.policy("xtream-adm2").ratio() < 0.7, "XTREAM charges each VBR stream its peak");
        assertTrue(vbr250.policy("adm2").ratio() >= 0.94, "ADM2: " + vbr250.policy("adm2"));
        for (RowResult row : RESULTS) {
            assertTrue(row.maxN() - row.policy("adm2").admitted() <= 1, row.row().label() + ": " + row);
        }
    }

    /** ADM3 charges VBR streams their average fragment and overbooks: the paper's warning, measured. */
    @Test
    void adm3OverbooksVbrStreams() {
        RowResult vbr1000 = RESULTS.get(4);
        assertEquals("1000 kB/s V", vbr1000.row().label());
        assertTrue(vbr1000.policy("adm3").admitted() > vbr1000.maxN());
        assertTrue(vbr1000.policy("adm3").missed() > 0);
    }
}

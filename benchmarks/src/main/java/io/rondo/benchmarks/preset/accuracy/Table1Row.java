package io.rondo.benchmarks.preset.accuracy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One row of papers/000 Table 1: a mix type at an average bit rate, with the paper's own figures
 * (measured on a WD400BB, far faster than papers/001's disk, so only the ratios compare).
 *
 * @param type          the mix
 * @param averageKBps   the average bit rate in kB/s (1000 bytes a second)
 * @param paperMaxN     the paper's MaxN
 * @param paperAdm1     what the paper's Adm1 admitted
 * @param paperAdm2     what the paper's Adm2 admitted
 * @param paperAdm3     what the paper's Adm3 admitted, or -1 where the paper says n/a (CBR: as Adm2)
 */
public record Table1Row(MixType type, int averageKBps, int paperMaxN, int paperAdm1, int paperAdm2, int paperAdm3) {

    /** The nine rows, in the paper's order. */
    public static List<Table1Row> paperRows() {
        List<Table1Row> rows = new ArrayList<>();
        rows.add(new Table1Row(MixType.C, 250, 44, 39, 43, -1));
        rows.add(new Table1Row(MixType.C, 1000, 20, 14, 15, -1));
        rows.add(new Table1Row(MixType.C, 2000, 12, 9, 10, -1));
        rows.add(new Table1Row(MixType.V, 250, 44, 30, 34, 43));
        rows.add(new Table1Row(MixType.V, 1000, 23, 11, 12, 15));
        rows.add(new Table1Row(MixType.V, 2000, 11, 7, 8, 10));
        rows.add(new Table1Row(MixType.H, 250, 44, 39, 43, -1));
        rows.add(new Table1Row(MixType.H, 1000, 16, 14, 15, -1));
        rows.add(new Table1Row(MixType.H, 2000, 10, 9, 10, -1));
        return rows;
    }

    /** The bytes one stream reads per second on average. */
    public long averageBytesPerSecond() {
        return averageKBps * 1000L;
    }

    /** {@code 250 kB/s C}: how the paper names the row. */
    public String label() {
        return String.format(Locale.ROOT, "%d kB/s %s", averageKBps, type);
    }
}

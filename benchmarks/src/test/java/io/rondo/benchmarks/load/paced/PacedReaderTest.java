package io.rondo.benchmarks.load.paced;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PacedReaderTest {

    /** A clock that moves only when the reader sleeps or reads. */
    private long nowNs;

    private PacedReader reader(long[] readCostsNs, long[] mediaNs, List<long[]> reads) {
        int[] next = {0};
        PacedReader.BlockSource source = () -> {
            int i = next[0]++;
            if (i >= readCostsNs.length) {
                return -1;
            }
            nowNs += readCostsNs[i];
            return mediaNs[i];
        };
        PacedReader.Sleeper sleeper = dueNs -> nowNs = Math.max(nowNs, dueNs);
        return new PacedReader(source, () -> nowNs, sleeper,
            (dueNs, wokeNs, doneNs) -> reads.add(new long[] {dueNs, doneNs, wokeNs}));
    }

    @Test
    void aReadsJitterIsItsCompletionMinusItsDueTime() throws Exception {
        nowNs = 0;
        List<long[]> reads = new ArrayList<>();
        // 10 ms blocks; the second read takes 3 ms.
        PacedReader r = reader(new long[] {100_000, 3_000_000, 200_000}, new long[] {10_000_000, 10_000_000,
            10_000_000}, reads);
        assertEquals(3, r.run(1_000_000, 1_000_000_000));
        assertEquals(List.of(1_000_000L, 11_000_000L, 21_000_000L), reads.stream().map(a -> a[0]).toList());
        assertEquals(List.of(100_000L, 3_000_000L, 200_000L), reads.stream().map(a -> a[1] - a[0]).toList());
        assertEquals(List.of(0L, 0L, 0L), reads.stream().map(a -> a[2] - a[0]).toList(), "the sleeper woke on time");
    }

    @Test
    void aMissedDeadlineIsForgivenSoTheNextReadIsDueAtOnceNotInThePast() throws Exception {
        nowNs = 0;
        List<long[]> reads = new ArrayList<>();
        // The first read takes 25 ms of a 10 ms block: the second is due at its completion (25 ms), not at 10 ms.
        PacedReader r = reader(new long[] {25_000_000, 1_000_000, 1_000_000}, new long[] {10_000_000, 10_000_000,
            10_000_000}, reads);
        r.run(0, 1_000_000_000);
        assertEquals(List.of(0L, 25_000_000L, 35_000_000L), reads.stream().map(a -> a[0]).toList());
        assertEquals(List.of(25_000_000L, 1_000_000L, 1_000_000L), reads.stream().map(a -> a[1] - a[0]).toList());
    }

    @Test
    void nextDueTimeIsOneBlockOnButNeverBeforeNow() {
        assertEquals(20, PacedReader.nextDueNs(10, 10, 19));
        assertEquals(20, PacedReader.nextDueNs(10, 10, 20));
        assertEquals(21, PacedReader.nextDueNs(10, 10, 21));
    }

    @Test
    void theReaderStopsBeforeAReadDueAtTheEndAndAtTheEndOfTheMedia() throws Exception {
        nowNs = 0;
        List<long[]> reads = new ArrayList<>();
        PacedReader r = reader(new long[] {0, 0, 0, 0}, new long[] {10, 10, 10, 10}, reads);
        assertEquals(2, r.run(0, 20));
        nowNs = 0;
        reads.clear();
        PacedReader all = reader(new long[] {0, 0}, new long[] {10, 10}, reads);
        assertEquals(2, all.run(0, 1_000), "the source's end stops the reader; nothing is counted for it");
        assertEquals(2, reads.size());
    }

    @Test
    void theInterarrivalJitterFollowsTheReads() throws Exception {
        nowNs = 0;
        PacedReader r = reader(new long[] {1_000, 17_000}, new long[] {10_000_000, 10_000_000}, new ArrayList<>());
        r.run(0, 1_000_000_000);
        // Transits 1 us then 17 us: D = 16 us, J = 16 / 16 = 1 us.
        assertEquals(1_000.0, r.interarrival().jitterNs(), 1e-9);
    }

    @Test
    void aFragmentsBlocksShareItsDisplayTimeByTheirBytes() throws Exception {
        FragmentSource source = new FragmentSource(10_000);
        source.offer(new FragmentSource.Fragment(5, 100, 1_000_000_000, 25_000));
        source.end();
        assertEquals(100, source.firstDueNs(1_000_000_000));
        assertEquals(400_000_000, source.readNext());
        assertEquals(400_000_000, source.readNext());
        assertEquals(200_000_000, source.readNext());
        assertEquals(-1, source.readNext());
        assertEquals(-1, source.readNext(), "the end stays the end");
    }
}

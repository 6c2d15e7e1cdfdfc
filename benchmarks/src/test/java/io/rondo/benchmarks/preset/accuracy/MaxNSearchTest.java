package io.rondo.benchmarks.preset.accuracy;

import io.rondo.scheduler.disk.DiskModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MaxNSearchTest {

    /** One round of 1 s with the default reserve: 800 ms for the streams. */
    private static final long ROUND_NS = 1_000_000_000L;

    @Test
    void findsTheLargestCleanNFromAnyFirstGuess() {
        for (int guess : List.of(1, 7, 13, 14, 40, 500)) {
            MaxNSearch search = new MaxNSearch(n -> n <= 13, 1000);
            assertEquals(13, search.maxN(guess), "from " + guess);
            assertTrue(search.tried().get(13));
            assertFalse(search.tried().get(14), "the N above MaxN was tried and glitched");
            assertTrue(search.tried().size() <= 20, "a logarithmic number of trials: " + search.tried());
        }
    }

    @Test
    void reportsZeroWhenEvenOneStreamGlitchesAndTheLimitWhenEverythingIsClean() {
        assertEquals(0, new MaxNSearch(n -> false, 100).maxN(10));
        assertEquals(100, new MaxNSearch(n -> true, 100).maxN(3));
    }

    /**
     * A disk with no seeks and no rotation that transfers 100 MB/s: a 1000 kB/s CBR fragment of
     * 1,000,000 B takes exactly 10 ms, so 80 fit the 800 ms before the reserve and the 81st is
     * read 10 ms into it. The search, running the real executor on the emulated disk, says 80.
     */
    @Test
    void findsTheCapacityOfATinyDiskThroughTheExecutor() {
        DiskModel disk = new DiskModel() {
            @Override
            public long capacityBytes() {
                return 1L << 30;
            }

            @Override
            public long seekNs(long fromPosition, long toPosition) {
                return 0;
            }

            @Override
            public long maxSeekNs() {
                return 0;
            }

            @Override
            public long worstCaseRotationNs() {
                return 0;
            }

            @Override
            public long transferNs(long position, long sizeBytes) {
                return sizeBytes * 10;
            }
        };
        StreamSet set = new StreamSet(new Table1Row(MixType.C, 1000, 0, 0, 0, -1), ROUND_NS, 20, 1);

        MaxNSearch search = new MaxNSearch(
            n -> EmulatedRounds.run(disk, set, n, ROUND_NS, 0.2, 1).clean(), 1000);

        assertEquals(80, search.maxN(1));
        EmulatedRounds.Outcome over = EmulatedRounds.run(disk, set, 81, ROUND_NS, 0.2, 1);
        assertEquals(20, over.missed(), "the 81st fragment of every round runs into the reserve");
        assertEquals(0, over.deadlineGlitches(), "but not past the round's end");
        assertEquals(810_000_000, over.longestRoundNs());
        EmulatedRounds.Outcome noReserve = EmulatedRounds.run(disk, set, 100, ROUND_NS, 0, 1);
        assertEquals(0, noReserve.missed(), "with no reserve the whole second is the streams'");
        assertEquals(20, EmulatedRounds.run(disk, set, 101, ROUND_NS, 0, 1).deadlineGlitches(),
            "and the 101st fragment misses the round's end, as the scheduler counts it");
    }
}

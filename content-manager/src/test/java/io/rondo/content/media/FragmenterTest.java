package io.rondo.content.media;

import static io.rondo.content.media.IndexChecks.MS;
import static io.rondo.content.media.IndexChecks.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rondo.content.media.Fragmenter.Cut;
import io.rondo.content.model.Fragment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FragmenterTest {

    /** Units starting at these times (ms), 1000 bytes apart. */
    private static List<Cut> cutsAtMs(long... startsMs) {
        List<Cut> cuts = new ArrayList<>();
        for (int i = 0; i < startsMs.length; i++) {
            cuts.add(new Cut(100 + 1000L * i, startsMs[i] * MS));
        }
        return cuts;
    }

    private static List<Fragment> group(long endMs, long... startsMs) throws MediaFormatException {
        return Fragmenter.group(cutsAtMs(startsMs), endMs * MS, 100 + 1000L * startsMs.length, SECOND, "Cluster");
    }

    private static List<Long> startsMs(List<Fragment> fragments) {
        return fragments.stream().map(f -> f.startNs() / MS).toList();
    }

    @Test
    void closesAFragmentAtTheFirstBoundaryOneRoundAfterItsStart() throws Exception {
        List<Fragment> fragments = group(3000, 0, 400, 800, 1200, 1600, 2000, 2400, 2800);

        assertEquals(List.of(0L, 1200L, 2400L), startsMs(fragments));
        assertEquals(List.of(1200 * MS, 1200 * MS, 600 * MS), fragments.stream().map(Fragment::durationNs).toList());
        assertEquals(List.of(100L, 3100L, 6100L), fragments.stream().map(Fragment::offset).toList());
        assertEquals(8100, fragments.get(2).offset() + fragments.get(2).length());
    }

    @Test
    void aBoundaryAFewMillisecondsShortOfTheRoundCountsAsReachingIt() throws Exception {
        assertEquals(List.of(0L, 996L, 1978L, 2980L), startsMs(group(4003, 0, 996, 1978, 2980, 3983)));
        assertEquals(List.of(0L, 950L), startsMs(group(2000, 0, 950)));
        assertEquals(List.of(0L, 1898L), startsMs(group(3000, 0, 949, 1898)));
    }

    @Test
    void aUnitLongerThanTheRoundThatStartsAFragmentIsAFragmentOfItsOwn() throws Exception {
        List<Fragment> fragments = group(9000, 0, 3000, 6000);

        assertEquals(List.of(0L, 3000L, 6000L), startsMs(fragments));
        assertEquals(3 * SECOND, fragments.get(2).durationNs());
    }

    @Test
    void aShortUnitBeforeALongOneSharesItsFragment() throws Exception {
        assertEquals(List.of(0L, 3000L), startsMs(group(5000, 0, 500, 3000)));
    }

    @Test
    void aLastSliverShorterThanAQuarterRoundJoinsTheFragmentBeforeIt() throws Exception {
        List<Fragment> merged = group(3249, 0, 1000, 2000, 3000);
        assertEquals(List.of(0L, 1000L, 2000L), startsMs(merged));
        assertEquals(1249 * MS, merged.get(2).durationNs());

        assertEquals(List.of(0L, 1000L, 2000L, 3000L), startsMs(group(3250, 0, 1000, 2000, 3000)));
    }

    @Test
    void oneUnitIsOneFragment() throws Exception {
        List<Fragment> fragments = group(100, 0);

        assertEquals(1, fragments.size());
        assertEquals(100 * MS, fragments.get(0).durationNs());
    }

    @Test
    void unitsGoingBackInTimeAreCorrupt() {
        MediaFormatException e = assertThrows(MediaFormatException.class, () -> group(3000, 0, 1000, 500));

        assertEquals("corrupt: the Cluster at byte 2100 starts at 0.500 s, before the Cluster at byte 1100"
            + " (1.000 s)", e.getMessage());
    }

    @Test
    void convertsTicksToNanosecondsWithoutOverflowAndRejectsWhatWouldOverflow() throws Exception {
        assertEquals(1_002_666_666L, Fragmenter.ticksToNs(48128, 48000, "x"));
        assertEquals(Long.MAX_VALUE / 1_000_000_000L * 1_000_000_000L,
            Fragmenter.ticksToNs(Long.MAX_VALUE / 1_000_000_000L * 90_000, 90_000, "x"));
        assertThrows(MediaFormatException.class, () -> Fragmenter.ticksToNs(Long.MAX_VALUE, 1000, "the mvhd"));
        assertThrows(MediaFormatException.class, () -> Fragmenter.ticksToNs(1, 0, "the mdhd"));
    }
}

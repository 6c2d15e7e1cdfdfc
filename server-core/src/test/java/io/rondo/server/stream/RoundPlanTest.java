package io.rondo.server.stream;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.server.runtime.Prepared;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The round plan stepped round by round, as the round clock and the event loop drive it. */
class RoundPlanTest {

    private static Prepared oneDisk(int fragments) {
        return placed(new int[fragments]);
    }

    /** Fragments on the disks {@code diskIndexes} gives, by fragment; nothing behind them but their places. */
    private static Prepared placed(int[] diskIndexes) {
        return new Prepared.Stored(null, List.of(), new long[diskIndexes.length], diskIndexes);
    }

    @Test
    void aStreamFromTheStartReadsOneFragmentPerRound() {
        RoundPlan plan = new RoundPlan(oneDisk(20));
        RoundPlan.Read[] first = plan.start(0, 0, 0);
        assertEquals(1, first.length);
        assertEquals(0, first[0].fragment());
        List<Integer> perRound = new ArrayList<>();
        int lastRound = -1;
        for (long round = 0; round < 40; round++) {
            RoundPlan.Read read = plan.planRound(0, round);
            assertNull(plan.planRound(0, round), "a second ask in the same round reads nothing");
            if (read != null) {
                perRound.add(read.fragment());
                lastRound = (int) round;
                plan.released();
            }
        }
        assertEquals(19, perRound.size(), "fragments 1..19, one a round");
        assertEquals(1, perRound.get(0));
        assertEquals(18, lastRound, "a 20-fragment stream's reads span 19 rounds after the first read");
    }

    @Test
    void aStartInsideALongGopCatchesUpFromTheKeyframeAtOnceThenGoesOneARound() {
        RoundPlan plan = new RoundPlan(oneDisk(30));
        RoundPlan.Read[] now = plan.start(10, 14, 0);
        assertArrayEquals(new int[] {10, 11}, Arrays.stream(now).mapToInt(RoundPlan.Read::fragment).toArray(),
            "both buffers go to the keyframe's fragment and the next");
        assertNull(plan.planRound(0, 0), "the rounds wait while the stream catches up");
        assertEquals(12, plan.released().fragment(), "a buffer freed while catching up reads the next at once");
        assertEquals(13, plan.released().fragment());
        assertEquals(14, plan.released().fragment(), "up to the fragment of the start position");
        assertNull(plan.released(), "then the catch-up is over");
        assertNull(plan.released());
        assertEquals(15, plan.planRound(0, 1).fragment(), "and the rounds read on, one a round");
        assertNull(plan.planRound(0, 1));
        plan.released();
        assertEquals(16, plan.planRound(0, 2).fragment());
    }

    @Test
    void aSeekDropsTheOldReadsAndStartsAgainAtTheKeyframe() {
        RoundPlan plan = new RoundPlan(oneDisk(30));
        plan.start(0, 0, 0);
        RoundPlan.Read old = plan.planRound(0, 0);
        assertEquals(2, plan.held());
        RoundPlan.Read[] now = plan.start(20, 21, 1);
        assertEquals(1, now.length, "one buffer is still held by a read in flight");
        assertEquals(20, now[0].fragment());
        assertEquals(false, plan.current(old.generation()), "the read in flight belongs to the old position");
        RoundPlan.Read next = plan.released();
        assertEquals(21, next.fragment(), "its buffer, once free, goes on with the catch-up");
        assertEquals(now[0].generation(), next.generation());
    }

    @Test
    void aClientThatTakesNothingIsFlaggedAfterFiveRounds() {
        RoundPlan plan = new RoundPlan(oneDisk(30));
        plan.start(0, 0, 0);
        plan.planRound(0, 0);
        for (long round = 1; round < RoundPlan.LAG_ROUNDS; round++) {
            assertNull(plan.planRound(0, round), "round " + round);
        }
        assertSame(RoundPlan.Read.LAGGING, plan.planRound(0, RoundPlan.LAG_ROUNDS));
    }

    @Test
    void eachRoundReadsOnlyOnTheDiskThatHoldsTheNextFragment() {
        RoundPlan plan = new RoundPlan(placed(new int[] {0, 1, 0, 1}));
        plan.start(0, 0, 0);
        assertNull(plan.planRound(0, 0), "fragment 1 is on disk 1");
        assertEquals(1, plan.planRound(1, 0).fragment());
        plan.released();
        plan.released();
        assertEquals(2, plan.planRound(0, 1).fragment());
    }

    @Test
    void aPausedStreamReadsNothingUntilResumed() {
        RoundPlan plan = new RoundPlan(oneDisk(5));
        plan.start(0, 0, 0);
        plan.pause(true);
        assertNull(plan.planRound(0, 0));
        plan.pause(false);
        assertEquals(1, plan.planRound(0, 1).fragment());
    }

    /**
     * A stream at a growing recording's live edge takes each fragment as it is cut, at once: the
     * rounds find nothing to read for it; one behind the edge keeps to its rounds.
     */
    @Test
    void atTheLiveEdgeEachFragmentIsTakenWhenCutAndBehindItTheRoundsRead() {
        int[] cut = {3};
        RoundPlan atEdge = new RoundPlan(new Growing(cut));
        atEdge.start(2, 2, 0);
        assertNull(atEdge.planRound(0, 0), "fragment 3 is not cut yet");
        cut[0] = 4;
        assertEquals(3, atEdge.cut(3).fragment(), "taken as soon as it is cut");
        assertNull(atEdge.planRound(0, 1), "nothing left for the round");
        atEdge.released();
        atEdge.released();
        cut[0] = 5;
        assertEquals(4, atEdge.cut(4).fragment());

        RoundPlan behind = new RoundPlan(new Growing(cut));
        behind.start(0, 0, 0);
        behind.released();
        assertNull(behind.cut(4), "a stream behind the edge is not sped up");
        assertEquals(1, behind.planRound(0, 0).fragment());
    }

    @Test
    void aStreamReadingEveryOtherRoundReadsTwoFragmentsInOneIoInItsSlot() {
        RoundPlan plan = new RoundPlan(oneDisk(20));
        plan.cadence(new Cadence(2, 1));
        plan.start(0, 0, 0);
        RoundPlan.Read transitory = plan.planRound(0, 0);
        assertArrayEquals(new int[] {1}, transitory.fragments(), "round 0 is not its slot: one fragment, up to it");
        plan.released();
        RoundPlan.Read slot = plan.planRound(0, 1);
        assertArrayEquals(new int[] {2, 3}, slot.fragments(), "its slot reads the two fragments up to the next");
        assertEquals(2, slot.roundFirst());
        plan.released();
        assertNull(plan.planRound(0, 2), "nothing between its slots");
        plan.released();
        assertArrayEquals(new int[] {4, 5}, plan.planRound(0, 3).fragments());
    }

    @Test
    void aChangeOfCadenceNeverLeavesARoundUnread() {
        RoundPlan plan = new RoundPlan(oneDisk(40));
        plan.start(0, 0, 0);
        int read = 1;
        for (long round = 0; round < 30; round++) {
            if (round == 5) {
                plan.cadence(new Cadence(4, 3));
            }
            if (round == 17) {
                plan.cadence(new Cadence(2, 0));
            }
            RoundPlan.Read reads = plan.planRound(0, round);
            if (reads != null) {
                assertEquals(read, reads.fragment(), "round " + round + " reads on from where the last stopped");
                read += reads.fragments().length;
                for (int i = 0; i < reads.fragments().length; i++) {
                    plan.released();
                }
            }
            assertTrue(read >= round + 2, "by round " + round + " the fragment of the round after is read");
            assertTrue(read <= round + 2 + 4, "never more than a cycle ahead");
        }
    }

    @Test
    void onTwoDisksEachDiskReadsItsShareOfTheCycleInOneIo() {
        RoundPlan plan = new RoundPlan(placed(new int[] {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}));
        plan.cadence(new Cadence(4, 0));
        plan.start(0, 0, 0);
        plan.planRound(0, 0);
        plan.planRound(1, 0);
        for (int sent = 0; sent < 4; sent++) {
            plan.released();
        }
        assertNull(plan.planRound(0, 3));
        RoundPlan.Read first = plan.planRound(0, 4);
        RoundPlan.Read second = plan.planRound(1, 4);
        assertArrayEquals(new int[] {6, 8}, first.fragments());
        assertArrayEquals(new int[] {5, 7}, second.fragments());
        assertEquals(5, first.roundFirst());
    }

    /** A recording on one disk with {@code cut[0]} fragments so far. */
    private record Growing(int[] cut) implements Prepared {

        @Override
        public MediaObject object() {
            return null;
        }

        @Override
        public int count() {
            return cut[0];
        }

        @Override
        public Fragment fragment(int i) {
            return Fragment.unplaced(i * 1_000_000_000L, 1_000_000_000L, i * 100L, 100);
        }

        @Override
        public OpenFile file(int i) {
            return null;
        }

        @Override
        public long position(int i) {
            return i;
        }

        @Override
        public int diskIndex(int i) {
            return 0;
        }

        @Override
        public boolean growing() {
            return true;
        }
    }
}

package io.rondo.server.stream;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The round plan stepped round by round, as the round clock and the event loop drive it. */
class RoundPlanTest {

    private static int[] oneDisk(int fragments) {
        return new int[fragments];
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
        RoundPlan plan = new RoundPlan(new int[] {0, 1, 0, 1});
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
}

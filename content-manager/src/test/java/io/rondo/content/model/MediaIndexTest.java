package io.rondo.content.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Where a stream starts in a long-GOP clip, and what a start costs. */
class MediaIndexTest {

    private static final long SECOND = 1_000_000_000L;

    /** 30 one-second fragments of 1000 bytes, keyframes at 0 s, 10 s and 22.5 s (inside fragment 22). */
    private static MediaIndex longGop() {
        List<Fragment> fragments = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long start = i * SECOND;
            long keyframe = i == 0 || i == 10 ? start : i == 22 ? start + SECOND / 2 : Fragment.NO_KEYFRAME;
            fragments.add(Fragment.unplaced(start, SECOND, 100 + i * 1000L, i == 12 ? 5000 : 1000, keyframe,
                i == 0 || i == 10));
        }
        return new MediaIndex("mp4", "video/mp4", "avc1.64000B", 30 * SECOND, new ByteRange(0, 100), fragments);
    }

    @Test
    void aPositionMapsToTheFragmentPlayingThen() {
        MediaIndex media = longGop();
        assertEquals(0, media.fragmentAt(-5));
        assertEquals(0, media.fragmentAt(0));
        assertEquals(14, media.fragmentAt(14 * SECOND + 999_999_999));
        assertEquals(29, media.fragmentAt(99 * SECOND));
    }

    @Test
    void aStartInsideAGopGoesBackToItsKeyframe() {
        MediaIndex media = longGop();
        assertEquals(10, media.keyframeFragmentAt(14 * SECOND + SECOND / 3), "mid-GOP: the keyframe at 10 s");
        assertEquals(10, media.keyframeFragmentAt(10 * SECOND), "on the keyframe itself");
        assertEquals(0, media.keyframeFragmentAt(9 * SECOND));
        assertEquals(10, media.keyframeFragmentAt(22 * SECOND + SECOND / 4),
            "fragment 22's keyframe comes after the position, so the one before");
        assertEquals(22, media.keyframeFragmentAt(22 * SECOND + SECOND / 2));
        assertEquals(22, media.keyframeFragmentAt(29 * SECOND));
    }

    @Test
    void theLargestStartIsTheLargestRunFromAKeyframe() {
        MediaIndex media = longGop();
        assertEquals(12 * 1000 + 4000, media.peakStartBytes(), "fragments 10..21, fragment 12 being 5000 bytes");
        assertEquals(5000, media.peakFragmentBytes());
    }

    @Test
    void demandPerFileIsItsMeanAndLargestFragment() {
        List<Fragment> placed = new ArrayList<>();
        List<Fragment> fragments = longGop().fragments();
        for (int i = 0; i < fragments.size(); i++) {
            placed.add(fragments.get(i).placedAt(1 + i % 2, i / 2 * 1000L));
        }
        MediaIndex media = new MediaIndex("mp4", "video/mp4", "", 30 * SECOND, new ByteRange(0, 100), placed);
        assertEquals(new MediaIndex.FileDemand(1000, 1000, 15), media.demandByFile().get(2));
        assertEquals(new MediaIndex.FileDemand(1266, 5000, 15), media.demandByFile().get(1));
    }
}

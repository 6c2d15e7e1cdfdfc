package io.rondo.server.hls;

import io.rondo.content.model.Fragment;

import java.util.ArrayList;
import java.util.List;

/**
 * An object's fragments grouped into HLS media segments: whole rounds, each segment starting at a
 * round that starts with a keyframe, about {@link #TARGET_NS} long (Apple's authoring specification
 * asks for six seconds). A segment closes before a round that starts with a keyframe and would take
 * it past the target; rounds without a keyframe at their start stay in the segment before, so a
 * segment may run past the target by what is left of a long group of pictures.
 *
 * <p>The cut depends only on the rounds before, so a recording's segments never change as it grows:
 * its last segment stays open until a round starts the next one or the recording ends.
 */
public final class HlsSegments {

    /** The segment length aimed at: six seconds. */
    public static final long TARGET_NS = 6_000_000_000L;

    /** What a segment may exceed the target by and still be taken as on it (frame timing). */
    private static final long SLACK_NS = 1_000_000;

    /**
     * One media segment: fragments {@code first} to {@code last}.
     *
     * @param closed   whether it is complete: false for a growing recording's last
     * @param keyframe whether it starts with a keyframe, so a decoder can start at its first byte
     */
    public record Segment(int first, int last, long startNs, long durationNs, long offset, long length,
                          boolean closed, boolean keyframe) {
    }

    private HlsSegments() {
    }

    /**
     * The segments of {@code fragments}, in order; if {@code complete} is false (a recording still
     * growing) the last is open, and listed with {@code closed} false.
     */
    public static List<Segment> of(List<Fragment> fragments, boolean complete) {
        List<Segment> segments = new ArrayList<>();
        int first = 0;
        long durationNs = 0;
        for (int i = 0; i < fragments.size(); i++) {
            Fragment fragment = fragments.get(i);
            if (i > first && fragment.keyframeFirst() && durationNs + fragment.durationNs() > TARGET_NS + SLACK_NS) {
                segments.add(segment(fragments, first, i - 1, true));
                first = i;
                durationNs = 0;
            }
            durationNs += fragment.durationNs();
        }
        if (first < fragments.size()) {
            segments.add(segment(fragments, first, fragments.size() - 1, complete));
        }
        return segments;
    }

    private static Segment segment(List<Fragment> fragments, int first, int last, boolean closed) {
        Fragment start = fragments.get(first);
        Fragment end = fragments.get(last);
        return new Segment(first, last, start.startNs(), end.startNs() + end.durationNs() - start.startNs(),
            start.offset(), end.offset() + end.length() - start.offset(), closed, start.keyframeFirst());
    }
}

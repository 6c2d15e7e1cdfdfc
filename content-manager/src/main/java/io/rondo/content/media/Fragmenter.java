package io.rondo.content.media;

import io.rondo.content.model.Fragment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Groups the units a container can be cut at (WebM clusters, fMP4 moof + mdat pairs) into fragments
 * of about one round T of display each (papers/001 Section 1.1, DESIGN.md "Time").
 *
 * <p>A fragment closes at the first unit boundary at least T after its start, so that one fragment
 * feeds a stream for a whole round; a unit longer than T that starts a fragment is a fragment on its
 * own. Two allowances keep fragments near T with real muxers:
 * <ul>
 *   <li>a boundary within T/20 short of T counts as reaching T: muxers open a cluster a few
 *       milliseconds before the keyframe when audio is interleaved (ffmpeg: 0, 996, 1978 ms for a
 *       keyframe every second), and without the allowance every such fragment would be two seconds;
 *   <li>a last fragment shorter than T/4 (a few trailing audio frames) joins the one before it rather
 *       than cost a disk request of its own.
 * </ul>
 * Offsets are contiguous: each fragment runs to where the next starts, and the last to the end of
 * the file, so headers and indexes between units (sidx, Cues, Tags) travel with a fragment.
 */
final class Fragmenter {

    /** A point the container can be cut at: where a unit starts in the file and when it plays. */
    record Cut(long offset, long startNs) { }

    private Fragmenter() {
    }

    /**
     * @param cuts      the units in file order, offsets strictly increasing
     * @param endNs     when the media ends (the last fragment's end)
     * @param endOffset the end of the file (the last fragment's end)
     * @param roundNs   T
     * @param unit      what a unit is called in messages, e.g. {@code Cluster}
     */
    static List<Fragment> group(List<Cut> cuts, long endNs, long endOffset, long roundNs, String unit)
        throws MediaFormatException {
        if (cuts.isEmpty()) {
            throw new IllegalArgumentException("no units to group");
        }
        for (int i = 1; i < cuts.size(); i++) {
            Cut before = cuts.get(i - 1);
            Cut cut = cuts.get(i);
            if (cut.startNs() < before.startNs()) {
                throw MediaFormatException.corrupt("the " + unit + " at byte " + cut.offset() + " starts at "
                    + seconds(cut.startNs()) + ", before the " + unit + " at byte " + before.offset()
                    + " (" + seconds(before.startNs()) + ")");
            }
        }
        long reach = roundNs - roundNs / 20;
        List<Cut> starts = new ArrayList<>();
        starts.add(cuts.get(0));
        for (Cut cut : cuts) {
            if (cut.startNs() - starts.get(starts.size() - 1).startNs() >= reach) {
                starts.add(cut);
            }
        }
        long end = Math.max(endNs, cuts.get(cuts.size() - 1).startNs());
        if (starts.size() > 1 && end - starts.get(starts.size() - 1).startNs() < roundNs / 4) {
            starts.remove(starts.size() - 1);
        }
        List<Fragment> fragments = new ArrayList<>(starts.size());
        for (int i = 0; i < starts.size(); i++) {
            Cut cut = starts.get(i);
            boolean last = i == starts.size() - 1;
            long nextNs = last ? end : starts.get(i + 1).startNs();
            long nextOffset = last ? endOffset : starts.get(i + 1).offset();
            fragments.add(Fragment.unplaced(cut.startNs(), nextNs - cut.startNs(), cut.offset(),
                nextOffset - cut.offset()));
        }
        return fragments;
    }

    /** {@code 1.978 s}: a time for a message. */
    static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    /** {@code ticks} of a clock with {@code timescale} ticks a second, in ns, failing on overflow. */
    static long ticksToNs(long ticks, long timescale, String what) throws MediaFormatException {
        if (timescale <= 0) {
            throw MediaFormatException.corrupt(what + " has a timescale of " + timescale);
        }
        try {
            return Math.addExact(Math.multiplyExact(ticks / timescale, 1_000_000_000L),
                (ticks % timescale) * 1_000_000_000L / timescale);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(what + " holds a time of " + ticks + " / " + timescale
                + " s, too large to be real");
        }
    }
}

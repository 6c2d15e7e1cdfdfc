package io.rondo.content.model;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a container indexer finds in a continuous object: what a browser's MediaSource needs to
 * play it and the fragment table the scheduler reads it by.
 *
 * @param container       {@code webm}, {@code mp4} (fragmented) or {@code mp3}
 * @param mimeType        {@code video/webm}, {@code audio/mp4}, ...
 * @param codecs          the codecs string of {@code MediaSource.isTypeSupported}, e.g.
 *                        {@code vp8, vorbis} or {@code avc1.42C01E, mp4a.40.2}
 * @param durationNs      the media's duration
 * @param init            the initialization segment (EBML header to the first cluster; ftyp + moov)
 * @param fragments       the fragments, in order, contiguous, covering everything after {@code init},
 *                        each one round of presentation (the last may be shorter)
 */
public record MediaIndex(String container, String mimeType, String codecs, long durationNs, ByteRange init,
                         List<Fragment> fragments) {

    public MediaIndex {
        fragments = List.copyOf(fragments);
    }

    /** {@code video/webm; codecs="vp8, vorbis"}: what MediaSource.addSourceBuffer takes. */
    public String mseType() {
        return codecs.isEmpty() ? mimeType : mimeType + "; codecs=\"" + codecs + "\"";
    }

    /** Bits per second over the whole media after the init segment. */
    public long averageBitRate() {
        long bytes = fragments.stream().mapToLong(Fragment::length).sum();
        return durationNs <= 0 ? 0 : (long) (bytes * 8e9 / durationNs);
    }

    /** The bytes of the largest fragment: what a stream's buffers and a client's profile must hold. */
    public long peakFragmentBytes() {
        return fragments.stream().mapToLong(Fragment::length).max().orElse(0);
    }

    /**
     * The fragment that plays at {@code positionNs}: the last one starting at or before it (the
     * first for a position before the media, the last for one past its end).
     */
    public int fragmentAt(long positionNs) {
        int low = 0;
        int high = fragments.size() - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (fragments.get(mid).startNs() <= positionNs) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /**
     * Where a stream opened or moved to {@code positionNs} starts reading: the fragment holding the
     * keyframe at or before the position, so that a decoder can start there. It is the fragment at
     * the position when that has a keyframe at or before it, else the last earlier one holding a
     * keyframe, else the first.
     */
    public int keyframeFragmentAt(long positionNs) {
        int at = fragmentAt(positionNs);
        Fragment fragment = fragments.get(at);
        if (fragment.hasKeyframe() && fragment.keyframeNs() <= Math.max(positionNs, fragment.startNs())) {
            return at;
        }
        for (int i = at - 1; i >= 0; i--) {
            if (fragments.get(i).hasKeyframe()) {
                return i;
            }
        }
        return 0;
    }

    /**
     * The bytes of the largest first read a stream can make: from the fragment holding a keyframe
     * up to the last fragment before the next one, the most a client must take at once after OPEN
     * or SEEK (one fragment where every fragment has a keyframe).
     */
    public long peakStartBytes() {
        long peak = 0;
        long run = 0;
        for (Fragment fragment : fragments) {
            run = fragment.hasKeyframe() ? fragment.length() : run + fragment.length();
            peak = Math.max(peak, run);
        }
        return peak;
    }

    /**
     * What a stream of this media reads from each file of its placement, per round it reads there:
     * the mean and the largest fragment (papers/000 Section 2.3, what admission charges a disk with).
     *
     * @return by file index, in file order
     */
    public Map<Integer, FileDemand> demandByFile() {
        Map<Integer, long[]> stats = new TreeMap<>();
        for (Fragment fragment : fragments) {
            long[] s = stats.computeIfAbsent(fragment.file(), file -> new long[3]);
            s[0] += fragment.length();
            s[1]++;
            s[2] = Math.max(s[2], fragment.length());
        }
        Map<Integer, FileDemand> demand = new TreeMap<>();
        stats.forEach((file, s) -> demand.put(file, new FileDemand(Math.max(1, s[0] / s[1]), Math.max(1, s[2]),
            (int) s[1])));
        return demand;
    }

    /**
     * What a stream reads from one file of the placement.
     *
     * @param meanFragmentBytes the mean fragment there
     * @param peakFragmentBytes the largest fragment there
     * @param fragments         how many fragments the file holds
     */
    public record FileDemand(long meanFragmentBytes, long peakFragmentBytes, int fragments) {
    }

    /** The highest bit rate of any one fragment. */
    public long peakBitRate() {
        return fragments.stream().filter(f -> f.durationNs() > 0)
            .mapToLong(f -> (long) (f.length() * 8e9 / f.durationNs())).max().orElse(0);
    }
}

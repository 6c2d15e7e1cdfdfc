package io.rondo.benchmarks.preset.accuracy;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * papers/000 Section 3.3's MaxN, "the maximum number of streams that the system can support
 * without missing deadlines", found as the paper found it, by trial, but with fewer trials:
 * from a first guess, N is raised in growing steps (1, 2, 4, ...) until a run glitches, then the
 * gap between the last clean N and that one is halved until they are neighbours. Where the
 * first guess already glitches, N is lowered the same way. Every N tried is run once (the
 * outcome of an N is the same every time for the same seeds), and what each gave is kept.
 */
public final class MaxNSearch {

    private final IntPredicate clean;
    private final int limit;
    private final Map<Integer, Boolean> tried = new TreeMap<>();

    /**
     * @param clean whether N streams run without a glitch (N = 0 is taken to be clean)
     * @param limit the largest N worth trying: the search reports it if even that is clean
     */
    public MaxNSearch(IntPredicate clean, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the search needs room for at least one stream, limit was " + limit);
        }
        this.clean = clean;
        this.limit = limit;
    }

    /** The largest clean N, searching from {@code firstGuess}; the N above it glitched (or is past the limit). */
    public int maxN(int firstGuess) {
        int guess = Math.max(1, Math.min(limit, firstGuess));
        int lo;
        int hi;
        if (isClean(guess)) {
            lo = guess;
            hi = guess;
            int step = 1;
            while (hi < limit && isClean(hi)) {
                lo = hi;
                hi = (int) Math.min(limit, (long) hi + step);
                step *= 2;
            }
            if (isClean(hi)) {
                return hi;
            }
        } else {
            hi = guess;
            lo = guess;
            int step = 1;
            while (lo > 0 && !isClean(lo)) {
                hi = lo;
                lo = Math.max(0, lo - step);
                step *= 2;
            }
        }
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if (isClean(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Every N tried, with whether it ran clean, in order of N. */
    public Map<Integer, Boolean> tried() {
        return tried;
    }

    private boolean isClean(int streams) {
        if (streams == 0) {
            return true;
        }
        return tried.computeIfAbsent(streams, clean::test);
    }
}

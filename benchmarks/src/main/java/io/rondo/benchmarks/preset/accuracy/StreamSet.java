package io.rondo.benchmarks.preset.accuracy;

import io.rondo.scheduler.admission.DiskDemand;
import io.rondo.scheduler.sim.SizeDistribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The streams of one Table 1 row: stream {@code i}'s fragment of every round, the same for a
 * given seed however many streams are asked for, so that the set of N + 1 streams is the set of
 * N with one more (as admission sees them arrive one by one).
 *
 * <p>A fragment is one round of display (papers/001 Section 1.1), so its size is the stream's
 * bit rate times the round. VBR fragments are Gamma distributed with a coefficient of variation
 * of {@value #VBR_CV}, as papers/001 Table 2's C-requests (800,000 B, sd 200,000 B). The
 * heterogeneous mix gives each stream a constant rate from {@link #H_MULTIPLIERS}, a ladder from a
 * tenth of the average up whose mean is exactly 1, shuffled per block of ten streams: a stream of
 * ten times the average, as the paper's H rows allow, would not fit a round of the paper's disk
 * on its own at 1000 kB/s (10 MB at 8.79 MB/s), so the ladder stops at 3.4 times.
 */
public final class StreamSet {

    /** The coefficient of variation of VBR fragment sizes. */
    public static final double VBR_CV = 0.25;

    /** The heterogeneous mix's rates, as multiples of the average: mean 1, 0.1 to 3.4. */
    static final double[] H_MULTIPLIERS = {0.1, 0.15, 0.2, 0.3, 0.45, 0.7, 1.0, 1.5, 2.2, 3.4};

    private final Table1Row row;
    private final long meanFragmentBytes;
    private final int rounds;
    private final long seed;
    private final List<long[]> fragments = new ArrayList<>();
    private final List<DiskDemand> demands = new ArrayList<>();

    /**
     * @param row     the mix and its average bit rate
     * @param roundNs the round length: a fragment's display time
     * @param rounds  how many fragments each stream has (one a round)
     * @param seed    the sizes' seed (VBR sizes, the order of the H ladder)
     */
    public StreamSet(Table1Row row, long roundNs, int rounds, long seed) {
        if (rounds < 1) {
            throw new IllegalArgumentException("streams need at least one fragment, were given " + rounds);
        }
        this.row = row;
        this.meanFragmentBytes = Math.round(row.averageBytesPerSecond() * (roundNs / 1e9));
        this.rounds = rounds;
        this.seed = seed;
    }

    public Table1Row row() {
        return row;
    }

    public int rounds() {
        return rounds;
    }

    /** The size of stream {@code stream}'s fragment for round {@code round}. */
    public long fragmentBytes(int stream, int round) {
        return fragments(stream)[round];
    }

    /** What stream {@code stream} asks of its disk, as an ingest index tells it: mean, peak and spread. */
    public DiskDemand demand(int stream) {
        fragments(stream);
        return demands.get(stream);
    }

    /** The mean bit rate of the first {@code streams} streams, in kB/s. */
    public double averageKBps(int streams, long roundNs) {
        double bytes = 0;
        for (int stream = 0; stream < streams; stream++) {
            bytes += demand(stream).averageBytesPerRound();
        }
        return streams == 0 ? 0 : bytes / streams / (roundNs / 1e9) / 1000;
    }

    private long[] fragments(int stream) {
        if (stream < 0) {
            throw new IllegalArgumentException("no stream " + stream);
        }
        while (fragments.size() <= stream) {
            long[] sizes = generate(fragments.size());
            fragments.add(sizes);
            demands.add(demandOf(sizes));
        }
        return fragments.get(stream);
    }

    private long[] generate(int stream) {
        long[] sizes = new long[rounds];
        switch (row.type()) {
            case C -> Arrays.fill(sizes, meanFragmentBytes);
            case V -> {
                SplittableRandom random = new SplittableRandom(seed * 7919 + stream);
                SizeDistribution gamma = SizeDistribution.gamma(meanFragmentBytes, VBR_CV * meanFragmentBytes);
                for (int round = 0; round < rounds; round++) {
                    sizes[round] = gamma.sample(random);
                }
            }
            case H -> Arrays.fill(sizes, Math.max(1, Math.round(meanFragmentBytes * multiplier(stream))));
        }
        return sizes;
    }

    /** Stream {@code stream}'s place on the ladder: each block of ten streams takes every rung once. */
    private double multiplier(int stream) {
        int block = stream / H_MULTIPLIERS.length;
        double[] order = H_MULTIPLIERS.clone();
        SplittableRandom random = new SplittableRandom(seed * 104_729 + block);
        for (int i = order.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            double swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order[stream % order.length];
    }

    private static DiskDemand demandOf(long[] sizes) {
        double sum = 0;
        long peak = 0;
        for (long size : sizes) {
            sum += size;
            peak = Math.max(peak, size);
        }
        double mean = sum / sizes.length;
        double squares = 0;
        for (long size : sizes) {
            squares += (size - mean) * (size - mean);
        }
        long average = Math.min(peak, (long) Math.ceil(mean));
        return new DiskDemand(average, peak, Math.sqrt(squares / sizes.length));
    }
}

package io.rondo.scheduler.admission;

import io.rondo.scheduler.RoundSummary;

import java.util.Arrays;

/**
 * What one disk's rounds really took against what its model says they take, fed back into
 * admission (papers/000 Section 3.2 and Figure 2: the slack of every round).
 *
 * <p>Per round, what its C-requests took (their service time or, where more, the time from the
 * round's start to its last C-request less the D-requests served in between, so that the gaps in
 * which the disk's thread waited for a core count too) against what the disk's mean curve says IOs
 * of the same number and bytes take. The {@link #inflation()} is the median of those ratios over
 * the last {@link #WINDOW_ROUNDS} rounds that read at least {@link #MIN_REQUESTS} fragments
 * taking at least {@link #MIN_MODELLED_SHARE} of the round by the model, and never less than 1:
 * admission scales its modelled round by it, so a stream is admitted only if the round it joins
 * fits as modelled <em>and</em> as measured. On a machine whose cores rather than
 * its disks are the limit, the rounds stretch as the streams grow, and admission stops where they
 * would no longer fit.
 *
 * <p>Thread-safe: the disk's executor feeds its rounds, admission reads; each call holds the
 * monitor for a few field reads and writes.
 */
public final class MeasuredRounds {

    /** How many of the disk's recent rounds its inflation is taken over. */
    public static final int WINDOW_ROUNDS = 5;

    /** Rounds that read fewer fragments than this say little about the next stream's cost, and are skipped. */
    public static final int MIN_REQUESTS = 16;

    /**
     * Rounds whose reads the model gives less than this share of the round are skipped too: in a
     * light round a fixed cost (a pause of the JVM, code not yet compiled, a core taken for a few
     * milliseconds) weighs as much as the reads, and its ratio would say nothing of what another
     * stream costs; where the streams take a good part of the round, their reads' own cost is what
     * the ratio measures.
     */
    public static final double MIN_MODELLED_SHARE = 0.125;

    /**
     * Until a disk's rounds have been measured with them, streams past this share of the round
     * (by the model) are not admitted at once: enough to start a server's first hundreds of streams
     * in one go, and no more than a round can take twice over.
     */
    public static final double UNMEASURED_SHARE = 0.5;

    /** How many more streams than the most a fitting round of the last ones read a disk may take. */
    public static final double GROWTH = 1.5;

    private final ThroughputModel model;
    private final double[] ratios = new double[WINDOW_ROUNDS];
    private int kept;
    private int next;
    private final int[] fittingStreams = new int[WINDOW_ROUNDS];
    private int nextRound;
    private boolean fed;

    /** @param model the disk's curves: its mean curve is what a round's measured time is held against */
    public MeasuredRounds(ThroughputModel model) {
        this.model = model;
    }

    /**
     * A round of the disk ended; on its executor's thread.
     *
     * @param availableNs the part of the round the streams may take
     */
    public synchronized void roundEnded(RoundSummary round, long availableNs) {
        fed = true;
        int requests = round.continuousPlanned();
        long measuredNs = Math.max(round.continuousBusyNs(), round.durationNs() - round.discreteBusyNs());
        fittingStreams[nextRound] = round.overrun() || measuredNs > availableNs ? 0 : requests;
        nextRound = (nextRound + 1) % WINDOW_ROUNDS;
        if (requests < MIN_REQUESTS || round.continuousBytes() <= 0) {
            return;
        }
        long modelledNs = requests * model.meanCurveNs(Math.max(1, round.continuousBytes() / requests));
        if (modelledNs < round.lengthNs() * MIN_MODELLED_SHARE) {
            return;
        }
        ratios[next] = (double) measuredNs / Math.max(1, modelledNs);
        next = (next + 1) % WINDOW_ROUNDS;
        kept = Math.min(WINDOW_ROUNDS, kept + 1);
    }

    /** Whether any round of the disk was measured: until then the model alone judges. */
    public synchronized boolean measuring() {
        return fed;
    }

    /**
     * The most streams one of the disk's last {@link #WINDOW_ROUNDS} rounds read and still fitted
     * (no C-request late or dropped, its C-requests' measured time within what the streams may
     * take); 0 if none.
     */
    public synchronized int fittingStreams() {
        int most = 0;
        for (int streams : fittingStreams) {
            most = Math.max(most, streams);
        }
        return most;
    }

    /**
     * How many streams the disk may hold now, as measured: {@link #GROWTH} times the most a recent
     * round read and fitted, or, if more, those whose charge of {@code streamNs} each takes
     * {@link #UNMEASURED_SHARE} of {@code availableNs}. So streams opened by the hundred a second
     * are admitted as fast as rounds show they fit, not faster than the measurement can follow.
     */
    public int measuredLimit(long streamNs, long availableNs) {
        long unmeasured = (long) (availableNs * UNMEASURED_SHARE / Math.max(1, streamNs));
        long grown = (long) (fittingStreams() * GROWTH);
        return (int) Math.min(Integer.MAX_VALUE, Math.max(unmeasured, grown));
    }

    /**
     * By how much the disk's recent rounds took longer than its model says: the median of the
     * last rounds' ratios, so that one round stretched by a passing burst (a pause of the JVM,
     * streams opening by the hundred) does not close admission while a stretch that lasts does; at
     * least 1.
     */
    public synchronized double inflation() {
        if (kept == 0) {
            return 1;
        }
        double[] sorted = Arrays.copyOf(ratios, kept);
        Arrays.sort(sorted);
        double median = kept % 2 == 1 ? sorted[kept / 2] : (sorted[kept / 2 - 1] + sorted[kept / 2]) / 2;
        return Math.max(1, median);
    }
}

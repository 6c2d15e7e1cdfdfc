package io.rondo.scheduler.admission;

/**
 * How often a stream reads: once every {@code period} rounds, in the rounds {@code r} with
 * {@code r mod period == slot}, each read fetching the {@code period} fragments that play until
 * its next one in one IO (papers/003: a time cycle of {@code period} rounds; a combined stream's
 * cycle is twice its partner-free one). A stream that reads every round, as papers/001's rounds
 * have it, has {@link #EVERY_ROUND}.
 *
 * <p>Periods are powers of two up to {@link #MAX_PERIOD}, so that any two streams' reads line up
 * within {@code MAX_PERIOD} rounds, the slots admission keeps per disk ({@link SlotLoads}), and a
 * cycle can always be doubled or halved.
 *
 * @param period rounds between the stream's reads: a power of two from 1 to {@link #MAX_PERIOD}
 * @param slot   which of those rounds it reads in, {@code 0 <= slot < period}
 */
public record Cadence(int period, int slot) {

    /** The longest period: the number of round slots admission keeps per disk. */
    public static final int MAX_PERIOD = 32;

    /** A read every round. */
    public static final Cadence EVERY_ROUND = new Cadence(1, 0);

    public Cadence {
        if (period < 1 || period > MAX_PERIOD || Integer.bitCount(period) != 1) {
            throw new IllegalArgumentException("a stream's period must be a power of two from 1 to " + MAX_PERIOD
                + " rounds, was " + period);
        }
        if (slot < 0 || slot >= period) {
            throw new IllegalArgumentException("a slot must be in [0, " + period + "), was " + slot);
        }
    }

    /** Whether round {@code round} is one the stream reads in. */
    public boolean readsIn(long round) {
        return Math.floorMod(round, period) == slot;
    }

    /** The first round after {@code round} that the stream reads in. */
    public long nextAfter(long round) {
        return round + 1 + Math.floorMod(slot - (round + 1), (long) period);
    }

    /** The cadence of period {@code newPeriod} whose reads fall in the round {@code round}. */
    public static Cadence readingIn(long round, int newPeriod) {
        return new Cadence(newPeriod, (int) Math.floorMod(round, (long) newPeriod));
    }
}

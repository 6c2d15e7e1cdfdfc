package io.rondo.scheduler.admission;

import java.util.Arrays;

/**
 * How close to their deadlines the streams' fragments really leave the server, fed back into
 * admission: the measured check of everything past the disks (the cores, the sender, the link).
 *
 * <p>A fragment read in round k is due at the end of round k + 1, so a server with room sends
 * every fragment about a round before its deadline. Each fragment sent reports its slack, its
 * deadline less the moment the sender's turn for it came (the server reports only fragments that
 * did not wait for their own client, whose lateness is the client's); when the least slack of the current round and the
 * {@link #WINDOWS} - 1 before it falls under {@link #MIN_SLACK_SHARE} of a round, the server is at
 * its limit, and new streams are refused until the slack is back: the streams admitted keep the
 * room they have.
 *
 * <p>Thread-safe: every event loop reports its streams' fragments, admission reads; each call
 * holds the monitor for a few field reads and writes.
 */
public final class DeliverySlack {

    /** How many rounds, the current one included, the least slack is taken over. */
    public static final int WINDOWS = 3;

    /** The least slack, as a share of the round, under which new streams are refused. */
    public static final double MIN_SLACK_SHARE = 0.5;

    private final long roundNs;
    private final long[] window = new long[WINDOWS];
    private final long[] leastNs = new long[WINDOWS];

    /** @param roundNs the round length T, which is also how long each window lasts */
    public DeliverySlack(long roundNs) {
        this.roundNs = roundNs;
        Arrays.fill(window, Long.MIN_VALUE);
    }

    /** A fragment's last byte left {@code slackNs} before its deadline (negative: after it), at {@code nowNs}. */
    public synchronized void delivered(long slackNs, long nowNs) {
        long current = Math.floorDiv(nowNs, roundNs);
        int slot = Math.floorMod(current, WINDOWS);
        if (window[slot] != current) {
            window[slot] = current;
            leastNs[slot] = slackNs;
        } else {
            leastNs[slot] = Math.min(leastNs[slot], slackNs);
        }
    }

    /**
     * The least slack of the fragments sent in the current round and the {@link #WINDOWS} - 1
     * before it, at {@code nowNs}; {@link Long#MAX_VALUE} if none was sent in them.
     */
    public synchronized long leastSlackNs(long nowNs) {
        long current = Math.floorDiv(nowNs, roundNs);
        long least = Long.MAX_VALUE;
        for (int i = 0; i < WINDOWS; i++) {
            long age = current - window[i];
            if (window[i] != Long.MIN_VALUE && age >= 0 && age < WINDOWS) {
                least = Math.min(least, leastNs[i]);
            }
        }
        return least;
    }

    /** The least slack beside which a new stream is still admitted. */
    public long minSlackNs() {
        return (long) (roundNs * MIN_SLACK_SHARE);
    }
}

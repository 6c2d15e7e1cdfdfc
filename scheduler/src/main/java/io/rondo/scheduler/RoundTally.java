package io.rondo.scheduler;

/**
 * The accounts of one disk's rounds, as papers/000 Figure 2 plots them per time cycle: the C-requests
 * of the round in progress read on time, late and dropped, the D-requests served beside them and
 * the time each kind took, summed up as a {@link RoundSummary} when the round ends; and the totals
 * of the scheduler's life. The counts are plain fields reset at each round start; only the summary
 * itself is allocated, once a round.
 */
final class RoundTally {

    private long glitches;
    private long discardedContinuous;
    private long busyNs;
    private long continuousBusyNs;

    private int onTime;
    private int late;
    private int dropped;
    private int discreteServed;
    private long roundContinuousBusyNs;
    private long roundDiscreteBusyNs;
    private long lastContinuousDoneNs;
    private long continuousBytes;
    /** A C-request of an ended round, still in flight: already summed up as late with its round. */
    private DiskRequest carriedOver;

    /** A round starts at {@code startNs}: its counts start again from nothing. */
    void begin(long startNs) {
        onTime = 0;
        late = 0;
        dropped = 0;
        discreteServed = 0;
        roundContinuousBusyNs = 0;
        roundDiscreteBusyNs = 0;
        lastContinuousDoneNs = startNs;
        continuousBytes = 0;
    }

    /** The round that began has {@code request} to read. */
    void due(ContinuousRequest request) {
        continuousBytes += request.sizeBytes();
    }

    /**
     * {@code request} was read at {@code nowNs}, in {@code serviceNs}; a C-request carried over
     * from an ended round counts only in the totals.
     *
     * @return whether it was late: past its deadline, a glitch
     */
    boolean continuousCompleted(ContinuousRequest request, long serviceNs, long nowNs) {
        busyNs += serviceNs;
        continuousBusyNs += serviceNs;
        boolean wasLate = nowNs - request.deadlineNs() > 0;
        if (request == carriedOver) {
            carriedOver = null;
        } else {
            if (wasLate) {
                late++;
            } else {
                onTime++;
            }
            roundContinuousBusyNs += serviceNs;
            lastContinuousDoneNs = Math.max(lastContinuousDoneNs, nowNs);
        }
        if (wasLate) {
            glitches++;
        }
        return wasLate;
    }

    /** A D-request was served in {@code serviceNs}. */
    void discreteCompleted(long serviceNs) {
        busyNs += serviceNs;
        discreteServed++;
        roundDiscreteBusyNs += serviceNs;
    }

    /** {@code request} was dropped unread at {@code nowNs}: a glitch, charged its estimated cost. */
    void continuousDropped(ContinuousRequest request, long nowNs) {
        glitches++;
        discardedContinuous++;
        dropped++;
        roundContinuousBusyNs += request.estimatedCostNs;
        lastContinuousDoneNs = Math.max(lastContinuousDoneNs, nowNs);
    }

    /**
     * Sums up the round that started at {@code startNs} with {@code planned} C-requests, as the
     * next starts at {@code nextStartNs}, its unread C-requests already dropped. A C-request of it
     * still {@code inFlight} is counted late, with the time it has taken so far.
     */
    RoundSummary end(long startNs, long lengthNs, int planned, DiskRequest inFlight, long nextStartNs) {
        if (inFlight instanceof ContinuousRequest && inFlight != carriedOver) {
            carriedOver = inFlight;
            late++;
            roundContinuousBusyNs += nextStartNs - inFlight.issuedNs;
            lastContinuousDoneNs = Math.max(lastContinuousDoneNs, nextStartNs);
        }
        return new RoundSummary(startNs, lengthNs, planned, onTime, late, dropped, discreteServed,
            roundContinuousBusyNs, roundDiscreteBusyNs, lastContinuousDoneNs, continuousBytes);
    }

    /** C-requests that missed their deadline, late or dropped. */
    long glitches() {
        return glitches;
    }

    /** C-requests dropped unread at the end of their round; part of {@link #glitches()}. */
    long discardedContinuous() {
        return discardedContinuous;
    }

    /** Total service time of completed IOs. */
    long busyNs() {
        return busyNs;
    }

    /** Total service time of completed C-requests. */
    long continuousBusyNs() {
        return continuousBusyNs;
    }
}

package io.rondo.scheduler;

/**
 * What one round of one disk did, as its scheduler saw it when the next round started: the
 * available slack of papers/000 Section 3.2 and Figure 2 (the part of the round the streams left
 * free), whether every C-request was read by its deadline, and how many D-requests were served
 * beside them. Only when the slack stays above zero round after round can the disk keep every
 * stream's deadlines.
 *
 * <p>C-requests are counted in the round they belong to (the round whose end is their deadline);
 * D-requests in the round in which they completed. A C-request still in flight when the next
 * round starts counts as late in its own round, with the service time it took until then; the
 * rest of that IO belongs to no round's C-requests.
 *
 * @param startNs               when the round started
 * @param lengthNs              the round length T
 * @param continuousPlanned     C-requests the round had to read
 * @param continuousOnTime      of those, read by the round's end
 * @param continuousLate        read after the round's end (or still being read when the next round started)
 * @param continuousDropped     still unread when the next round started, and dropped
 * @param discreteServed        D-requests completed between this round's start and the next's, a new
 *                              stream's urgent first fragment included
 * @param continuousBusyNs      the service time of the round's C-requests; a dropped one is charged its
 *                              estimate (worst-case rotation and transfer, without the seek), so a round
 *                              its streams alone overfill shows as negative slack rather than as a full one
 * @param discreteBusyNs        the service time of the D-requests counted in {@code discreteServed}
 * @param lastContinuousDoneNs  when the last of the round's C-requests was read, or given up (dropped or
 *                              still in flight at the next round's start); {@code startNs} if it had none
 * @param continuousBytes       the bytes the round's C-requests read (or were to read)
 */
public record RoundSummary(long startNs, long lengthNs, int continuousPlanned, int continuousOnTime,
                           int continuousLate, int continuousDropped, int discreteServed, long continuousBusyNs,
                           long discreteBusyNs, long lastContinuousDoneNs, long continuousBytes) {

    /** The round length less the service time of its C-requests: negative if the streams alone overfill it. */
    public long slackNs() {
        return lengthNs - continuousBusyNs;
    }

    /**
     * From the round's start until its last C-request was read; 0 if it had none. If any was
     * dropped, the round's length at least: the dropped ones were given up no earlier than the
     * round's end, when the next round started.
     */
    public long durationNs() {
        if (continuousPlanned == 0) {
            return 0;
        }
        long untilLastNs = lastContinuousDoneNs - startNs;
        return continuousDropped > 0 ? Math.max(lengthNs, untilLastNs) : untilLastNs;
    }

    /** C-requests that missed their deadline: read late or dropped. */
    public int glitches() {
        return continuousLate + continuousDropped;
    }

    /** Whether the round's streams did not all get their fragment in time. */
    public boolean overrun() {
        return glitches() > 0;
    }
}

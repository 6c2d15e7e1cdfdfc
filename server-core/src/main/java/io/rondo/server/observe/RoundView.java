package io.rondo.server.observe;

/**
 * One disk's round as the admin API, the event stream and the dashboard show it (papers/000
 * Figure 2: the available slack of each time cycle).
 *
 * @param disk       the disk
 * @param round      the round's number, counted from the server's start
 * @param startedAt  when it started (ISO-8601, UTC)
 * @param lengthMs   the round length
 * @param slackMs    the round length minus the service time of the round's C-requests; negative when the
 *                   streams alone overfill the round
 * @param durationMs from the round's start until its last C-request was read
 * @param continuous C-requests read in the round
 * @param discrete   D-requests read in the round
 * @param glitches   C-requests read after their deadline or dropped
 * @param overrun    true if any C-request of the round missed its deadline
 */
public record RoundView(String disk, long round, String startedAt, double lengthMs, double slackMs,
                        double durationMs, int continuous, int discrete, int glitches, boolean overrun) {
}

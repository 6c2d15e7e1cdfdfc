package io.rondo.scheduler.load;

import java.util.Arrays;

/**
 * What a dummy-stream run measured over its measured rounds.
 *
 * @param spec         what ran
 * @param mode         how it ran ({@code real time} or {@code stepped}, on emulated or real disks)
 * @param reader       the disk reader ({@code native} or {@code java})
 * @param completed    D-requests that arrived after the warm-up and completed before the end
 * @param meanMs       mean D-response time
 * @param p95Ms        95th percentile D-response time
 * @param p99Ms        99th percentile D-response time
 * @param maxMs        longest D-response time
 * @param throughput   D-requests completed per second over all disks
 * @param glitches     C-requests that missed their round, late or dropped
 * @param slackMs      per disk, per measured round: the time left in the round after its last
 *                     C-request completed (papers/000 Figure 2); negative when a C-request was late
 * @param overrunIos   emulated IOs whose real read took longer than the model allowed
 * @param lateUs       how much later than the model an emulated IO completed, on average
 * @param ioErrors     reads that failed
 * @param rejected     D-requests refused because a disk's hand-over queue was full
 * @param wallSeconds  how long the run took on the wall clock
 */
public record LoadResult(LoadSpec spec, String mode, String reader, long completed, double meanMs, double p95Ms,
                         double p99Ms, double maxMs, double throughput, long glitches, double[][] slackMs,
                         long overrunIos, double lateUs, long ioErrors, long rejected, double wallSeconds) {

    /** The smallest slack of any disk in any measured round. */
    public double minSlackMs() {
        return Arrays.stream(slackMs).flatMapToDouble(Arrays::stream).min().orElse(Double.NaN);
    }

    /** The mean slack over disks and measured rounds. */
    public double meanSlackMs() {
        return Arrays.stream(slackMs).flatMapToDouble(Arrays::stream).average().orElse(Double.NaN);
    }
}

package io.rondo.scheduler.sim;

/**
 * What one simulated point measured, over all disks and the measured rounds. Times are in
 * milliseconds; response times are those of D-requests that arrived after the warm-up and
 * completed before the end.
 *
 * @param policy           the policy's name
 * @param rotation         {@code worst-case} or {@code omniscient} (Section 5.5)
 * @param n                C-requests per disk per round
 * @param lambda           D-request arrivals per second, all disks together
 * @param completed        D-requests whose response time was measured
 * @param meanMs           mean D-response time
 * @param p95Ms            95th percentile D-response time
 * @param p99Ms            99th percentile D-response time
 * @param maxMs            longest D-response time
 * @param throughput       D-requests completed per second, all disks together
 * @param glitches         C-requests that missed their round
 * @param utilization      the share of time the disks were busy
 * @param continuousShare  the share of each round spent reading C-requests
 * @param saturated        true if the D-queue grew without bound
 * @param simulatedSeconds the measured stretch of virtual time, per disk
 */
public record SimulationResult(String policy, String rotation, int n, double lambda, long completed, double meanMs,
                               double p95Ms, double p99Ms, double maxMs, double throughput, long glitches,
                               double utilization, double continuousShare, boolean saturated,
                               double simulatedSeconds) {

    /** The CSV header matching {@link #csvRow()}. */
    public static final String CSV_HEADER = "policy,rotation,n,lambda,completed,mean_ms,p95_ms,p99_ms,max_ms,"
        + "d_throughput,glitches,utilization,c_share,saturated,simulated_s";

    /** One CSV row, numbers in a locale-independent form. */
    public String csvRow() {
        return String.join(",", policy, rotation, Integer.toString(n), number(lambda), Long.toString(completed),
            number(meanMs), number(p95Ms), number(p99Ms), number(maxMs), number(throughput), Long.toString(glitches),
            number(utilization), number(continuousShare), Boolean.toString(saturated), number(simulatedSeconds));
    }

    private static String number(double value) {
        if (Double.isNaN(value)) {
            return "";
        }
        return new java.math.BigDecimal(value).setScale(3, java.math.RoundingMode.HALF_EVEN)
            .stripTrailingZeros().toPlainString();
    }
}

package io.rondo.scheduler.admission;

import java.time.Duration;

/**
 * The admission controller's settings, each with its default.
 *
 * @param policy                   which curve and which fragment size a stream is charged (default ADM2)
 * @param roundNs                  the round length T (default 1 s, as {@code scheduler.roundMs})
 * @param discreteReserve          the share of each round kept for D-requests, in {@code [0, 1)}
 *                                 (default 0.2): papers/000 Section 2.1's fixed portion for
 *                                 non-real-time jobs, papers/001 Section 2.2's time limit
 * @param bufferCeilingBytes       the most memory the streams' buffers may take together
 *                                 (default 256 MiB, as {@code buffers.ceiling})
 * @param defaultRetryAfterSeconds the retry-after when no admitted stream's end is known (default 30 s)
 */
public record AdmissionConfig(AdmissionPolicy policy, long roundNs, double discreteReserve, long bufferCeilingBytes,
                              long defaultRetryAfterSeconds) {

    public static final long DEFAULT_ROUND_NS = 1_000_000_000L;
    public static final double DEFAULT_DISCRETE_RESERVE = 0.2;
    public static final long DEFAULT_BUFFER_CEILING_BYTES = 256L << 20;
    public static final long DEFAULT_RETRY_AFTER_SECONDS = 30;

    public AdmissionConfig {
        if (policy == null) {
            throw new IllegalArgumentException("an admission policy is needed");
        }
        if (roundNs < 1_000_000) {
            throw new IllegalArgumentException("a round must last at least 1 ms, was " + roundNs + " ns");
        }
        if (!(discreteReserve >= 0 && discreteReserve < 1)) {
            throw new IllegalArgumentException("the D-request reserve must be a share of the round in [0, 1), was "
                + discreteReserve);
        }
        if (bufferCeilingBytes < 0) {
            throw new IllegalArgumentException("the buffer ceiling must not be negative, was " + bufferCeilingBytes);
        }
        if (defaultRetryAfterSeconds < 1) {
            throw new IllegalArgumentException("the default retry-after must be at least 1 s, was "
                + defaultRetryAfterSeconds);
        }
    }

    /** Every setting at its default. */
    public static AdmissionConfig defaults() {
        return new AdmissionConfig(AdmissionPolicy.DEFAULT, DEFAULT_ROUND_NS, DEFAULT_DISCRETE_RESERVE,
            DEFAULT_BUFFER_CEILING_BYTES, DEFAULT_RETRY_AFTER_SECONDS);
    }

    public AdmissionConfig withPolicy(AdmissionPolicy newPolicy) {
        return new AdmissionConfig(newPolicy, roundNs, discreteReserve, bufferCeilingBytes, defaultRetryAfterSeconds);
    }

    public AdmissionConfig withRound(Duration round) {
        return new AdmissionConfig(policy, round.toNanos(), discreteReserve, bufferCeilingBytes,
            defaultRetryAfterSeconds);
    }

    public AdmissionConfig withDiscreteReserve(double share) {
        return new AdmissionConfig(policy, roundNs, share, bufferCeilingBytes, defaultRetryAfterSeconds);
    }

    public AdmissionConfig withBufferCeilingBytes(long bytes) {
        return new AdmissionConfig(policy, roundNs, discreteReserve, bytes, defaultRetryAfterSeconds);
    }

    public AdmissionConfig withDefaultRetryAfterSeconds(long seconds) {
        return new AdmissionConfig(policy, roundNs, discreteReserve, bufferCeilingBytes, seconds);
    }

    /** The part of a round the C-requests may fill: {@code T (1 - reserve)}. */
    public long continuousNs() {
        return (long) Math.floor(roundNs * (1 - discreteReserve));
    }
}

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
 *                                 (default 256 MiB; {@code buffers.ceiling})
 * @param networkBitsPerSecond     the outgoing network capacity the streams may take together, in
 *                                 bits a second, or {@link #UNLIMITED_NETWORK} (the default;
 *                                 {@code network.capacity})
 * @param defaultRetryAfterSeconds the retry-after when no admitted stream's end is known (default 30 s)
 */
public record AdmissionConfig(AdmissionPolicy policy, long roundNs, double discreteReserve, long bufferCeilingBytes,
                              long networkBitsPerSecond, long defaultRetryAfterSeconds) {

    public static final long DEFAULT_ROUND_NS = 1_000_000_000L;
    public static final double DEFAULT_DISCRETE_RESERVE = 0.2;
    public static final long DEFAULT_BUFFER_CEILING_BYTES = 256L << 20;
    /** No network limit: streams are admitted by the disks and the buffer memory alone. */
    public static final long UNLIMITED_NETWORK = Long.MAX_VALUE;
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
        if (networkBitsPerSecond < 1) {
            throw new IllegalArgumentException("the network capacity must be at least 1 bit/s, was "
                + networkBitsPerSecond);
        }
        if (defaultRetryAfterSeconds < 1) {
            throw new IllegalArgumentException("the default retry-after must be at least 1 s, was "
                + defaultRetryAfterSeconds);
        }
    }

    /** Every setting at its default. */
    public static AdmissionConfig defaults() {
        return new AdmissionConfig(AdmissionPolicy.DEFAULT, DEFAULT_ROUND_NS, DEFAULT_DISCRETE_RESERVE,
            DEFAULT_BUFFER_CEILING_BYTES, UNLIMITED_NETWORK, DEFAULT_RETRY_AFTER_SECONDS);
    }

    public AdmissionConfig withPolicy(AdmissionPolicy newPolicy) {
        return new AdmissionConfig(newPolicy, roundNs, discreteReserve, bufferCeilingBytes, networkBitsPerSecond,
            defaultRetryAfterSeconds);
    }

    public AdmissionConfig withRound(Duration round) {
        return new AdmissionConfig(policy, round.toNanos(), discreteReserve, bufferCeilingBytes, networkBitsPerSecond,
            defaultRetryAfterSeconds);
    }

    public AdmissionConfig withDiscreteReserve(double share) {
        return new AdmissionConfig(policy, roundNs, share, bufferCeilingBytes, networkBitsPerSecond,
            defaultRetryAfterSeconds);
    }

    public AdmissionConfig withBufferCeilingBytes(long bytes) {
        return new AdmissionConfig(policy, roundNs, discreteReserve, bytes, networkBitsPerSecond,
            defaultRetryAfterSeconds);
    }

    /** The same settings with an outgoing network capacity, or {@link #UNLIMITED_NETWORK}. */
    public AdmissionConfig withNetworkBitsPerSecond(long bitsPerSecond) {
        return new AdmissionConfig(policy, roundNs, discreteReserve, bufferCeilingBytes, bitsPerSecond,
            defaultRetryAfterSeconds);
    }

    public AdmissionConfig withDefaultRetryAfterSeconds(long seconds) {
        return new AdmissionConfig(policy, roundNs, discreteReserve, bufferCeilingBytes, networkBitsPerSecond,
            seconds);
    }

    /** The part of a round the C-requests may fill: {@code T (1 - reserve)}. */
    public long continuousNs() {
        return (long) Math.floor(roundNs * (1 - discreteReserve));
    }

    /** Whether the network limits admission at all. */
    public boolean networkLimited() {
        return networkBitsPerSecond != UNLIMITED_NETWORK;
    }
}

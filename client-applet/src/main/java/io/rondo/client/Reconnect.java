package io.rondo.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;

/**
 * How a {@link StreamClient} picks a stream up again when its connection drops mid-stream (the
 * server's end reset or closed, no byte within the client's timeout, or ERROR SHUTTING_DOWN): it
 * connects again to the address it was first given (in a cluster, HAProxy's, which sends it to a
 * live replica) and OPENs at the fragment after the last it received, so its reader sees a
 * {@link Gap} and goes on (papers/004 Section 6).
 *
 * @param attempts how many connections to try after each loss before the stream fails; 0 never
 *     reconnects
 * @param backoff  the wait before the first attempt; each further attempt waits twice the one before
 * @param clock    the wall clock a gap's length is measured on
 */
public record Reconnect(int attempts, Duration backoff, InstantSource clock) {

    /** Checks the attempts are not negative and the backoff not negative. */
    public Reconnect {
        if (attempts < 0) {
            throw new IllegalArgumentException("attempts must not be negative, was " + attempts);
        }
        if (backoff == null || backoff.isNegative()) {
            throw new IllegalArgumentException("backoff must not be negative");
        }
        if (clock == null) {
            throw new IllegalArgumentException("clock is null");
        }
    }

    /** Never reconnect: a lost connection fails the stream. Its clock is never read. */
    public static final Reconnect NEVER = new Reconnect(0, Duration.ZERO, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

    /** The wait before attempt {@code attempt} (1 for the first). */
    Duration backoffBefore(int attempt) {
        return backoff.multipliedBy(1L << Math.min(20, attempt - 1));
    }
}

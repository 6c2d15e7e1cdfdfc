package io.rondo.client.protocol;

/**
 * What a client can take, sent in OPEN: admission control (papers/000 Section 2.3) checks the
 * object's bit rate against it, and the sender never paces DATA faster than the maximum rate
 * (papers/004 Section 3.2).
 *
 * @param maxReceiveBytesPerSecond the fastest the client will read, in bytes per second; positive
 * @param bufferBytes how many bytes of fragments the client can hold ahead of playback; positive
 */
public record ClientProfile(long maxReceiveBytesPerSecond, long bufferBytes) {
    /** Checks both fields are positive. */
    public ClientProfile {
        Wire.positive(maxReceiveBytesPerSecond, "maxReceiveBytesPerSecond");
        Wire.positive(bufferBytes, "bufferBytes");
    }
}

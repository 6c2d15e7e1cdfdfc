package io.rondo.server.stream;

/**
 * Holds a publisher to the peak rate it declared: a token bucket filled at the declared rate with
 * some slack, holding a few rounds of it, so that a keyframe or a burst from the network passes
 * and a publisher that keeps sending faster than it said does not (its recording was admitted,
 * and its writes charged, at the declared rate). Event loop only.
 */
final class PublishRate {

    /** How much faster than declared a publisher may send over a few rounds: encoders overshoot a little. */
    static final double SLACK = 1.5;
    /** How many rounds at the declared rate a burst may take at once. */
    static final int BURST_ROUNDS = 4;
    /** The least burst: a keyframe of a low-rate stream, or a few MEDIA frames. */
    static final long MIN_BURST_BYTES = 256 << 10;

    private final long bitsPerSecond;
    private final double bytesPerNs;
    private final double capacity;
    private double tokens;
    private long lastNs;

    PublishRate(long bitsPerSecond, long roundNs, long nowNs) {
        this.bitsPerSecond = bitsPerSecond;
        this.bytesPerNs = bitsPerSecond / 8.0 * SLACK / 1e9;
        this.capacity = Math.max(MIN_BURST_BYTES, bitsPerSecond / 8.0 * SLACK * BURST_ROUNDS * roundNs / 1e9);
        this.tokens = capacity;
        this.lastNs = nowNs;
    }

    /** {@code bytes} arrived at {@code nowNs}: null if the rate holds, else why the publisher is ended. */
    String received(long bytes, long nowNs) {
        tokens = Math.min(capacity, tokens + Math.max(0, nowNs - lastNs) * bytesPerNs);
        lastNs = nowNs;
        tokens -= bytes;
        if (tokens >= 0) {
            return null;
        }
        return "the publisher sends faster than the " + bitsPerSecond + " bit/s it declared (more than "
            + (long) capacity + " bytes above that rate); declare a higher peak rate, or pace the source in real time "
            + "(ffmpeg -re)";
    }
}

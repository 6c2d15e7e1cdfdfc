package io.rondo.server.config;

import java.util.List;

/**
 * The stream protocol's limits, deadlines and buffers, {@code streams:} in {@code rondo.yaml}, for
 * both bindings (the stream port and WebSocket at {@code /stream}). Each key's default is the
 * constant beside it; sizes are bytes, written with K, M, G (powers of 1024); durations are
 * written {@code 10s}, {@code 1500ms}.
 *
 * @param writeBufferLowBytes  {@code streams.writeBufferLow}: a client writable again below this many bytes queued
 * @param writeBufferHighBytes {@code streams.writeBufferHigh}: the sender passes a client over above this
 * @param initSegmentsKept     {@code streams.initSegmentsKept}: how many objects' init segments stay in memory
 * @param clientTimeoutMs      {@code streams.clientTimeout}: a stream whose client sends no frame for this long
 *                             is ended with ERROR CLIENT_TIMEOUT
 * @param openTimeoutMs        {@code streams.openTimeout}: a connection that has not sent a whole OPEN this long
 *                             after it connected (or after a REJECT's retry-after) is closed
 * @param maxClientFrameBytes  {@code streams.maxClientFrame}: the largest frame, header included, a client may
 *                             send; one declaring more is refused with ERROR FRAME_TOO_LARGE before it is read
 * @param maxUnansweredSeeks   {@code streams.maxUnansweredSeeks}: how many SEEKs may wait for their answer;
 *                             one more is an UNEXPECTED_FRAME
 * @param allowedOrigins       {@code streams.allowedOrigins}: the web pages ({@code Origin}s) that may open a
 *                             WebSocket stream; {@value #SAME_ORIGIN} stands for the server's own pages,
 *                             {@value #ANY_ORIGIN} for every page
 * @param clientBuffers        {@code buffers.clientBuffers}: how far a client's declared buffer and rate shrink
 *                             what its stream reserves ({@link BufferSettings})
 */
public record StreamSettings(int writeBufferLowBytes, int writeBufferHighBytes, int initSegmentsKept,
                             long clientTimeoutMs, long openTimeoutMs, int maxClientFrameBytes,
                             int maxUnansweredSeeks, List<String> allowedOrigins, ClientBufferUse clientBuffers) {

    /** {@code streams.writeBufferLow}. */
    public static final int DEFAULT_WRITE_BUFFER_LOW = 512 * 1024;
    /** {@code streams.writeBufferHigh}. */
    public static final int DEFAULT_WRITE_BUFFER_HIGH = 2 * 1024 * 1024;
    /** {@code streams.initSegmentsKept}. */
    public static final int DEFAULT_INIT_SEGMENTS_KEPT = 256;
    /** {@code streams.clientTimeout}: the protocol's CLIENT_TIMEOUT; a player REPORTs about once a second. */
    public static final long DEFAULT_CLIENT_TIMEOUT_MS = 10_000;
    /** {@code streams.openTimeout}: a client sends OPEN as soon as it connects. */
    public static final long DEFAULT_OPEN_TIMEOUT_MS = 5_000;
    /** {@code streams.maxClientFrame}: an OPEN with a name of a few thousand bytes is the largest client frame. */
    public static final int DEFAULT_MAX_CLIENT_FRAME = 64 * 1024;
    /** The smallest {@code streams.maxClientFrame}: room for an OPEN with a name of some 200 bytes. */
    public static final int MIN_MAX_CLIENT_FRAME = 256;
    /** The largest {@code streams.maxClientFrame}: the protocol's largest frame, 16 MiB of payload and its header. */
    public static final int MAX_MAX_CLIENT_FRAME = 16 * 1024 * 1024 + 8;
    /** {@code streams.maxUnansweredSeeks}: a player seeks once per click or key press. */
    public static final int DEFAULT_MAX_UNANSWERED_SEEKS = 64;
    /** The word in {@code streams.allowedOrigins} for a page served by this server: Origin host:port = Host. */
    public static final String SAME_ORIGIN = "same-origin";
    /** The word in {@code streams.allowedOrigins} for any page at all. */
    public static final String ANY_ORIGIN = "*";
    /** {@code streams.allowedOrigins}. */
    public static final List<String> DEFAULT_ALLOWED_ORIGINS = List.of(SAME_ORIGIN);

    /** Checks every limit once. */
    public StreamSettings {
        Settings.positive(initSegmentsKept, "streams.initSegmentsKept");
        Settings.waterMarks(writeBufferLowBytes, writeBufferHighBytes, "streams");
        Settings.positive(clientTimeoutMs, "streams.clientTimeout");
        Settings.positive(openTimeoutMs, "streams.openTimeout");
        Settings.positive(maxUnansweredSeeks, "streams.maxUnansweredSeeks");
        if (maxClientFrameBytes < MIN_MAX_CLIENT_FRAME || maxClientFrameBytes > MAX_MAX_CLIENT_FRAME) {
            throw new IllegalArgumentException("streams.maxClientFrame must be between " + MIN_MAX_CLIENT_FRAME
                + " bytes and 16 MiB + 8 bytes (the protocol's largest frame), was " + maxClientFrameBytes + " bytes");
        }
        for (String origin : allowedOrigins) {
            if (origin == null || !origin.equals(SAME_ORIGIN) && !origin.equals(ANY_ORIGIN)
                && !origin.matches("(?i)https?://[^/?#\\s]+")) {
                throw new IllegalArgumentException("streams.allowedOrigins must list same-origin, * or origins such "
                    + "as https://example.com:8443 (scheme://host[:port], no path), had '" + origin + "'");
            }
        }
        allowedOrigins = List.copyOf(allowedOrigins);
        if (clientBuffers == null) {
            throw new IllegalArgumentException("buffers.clientBuffers must be rate, buffer or off");
        }
    }

    /** The section as written: what it says, the defaults for the rest. */
    static StreamSettings read(Section written) {
        return new StreamSettings(
            Settings.size(written.writeBufferLow(), "streams.writeBufferLow", DEFAULT_WRITE_BUFFER_LOW),
            Settings.size(written.writeBufferHigh(), "streams.writeBufferHigh", DEFAULT_WRITE_BUFFER_HIGH),
            Settings.orDefault(written.initSegmentsKept(), DEFAULT_INIT_SEGMENTS_KEPT),
            Settings.duration(written.clientTimeout(), "streams.clientTimeout", DEFAULT_CLIENT_TIMEOUT_MS),
            Settings.duration(written.openTimeout(), "streams.openTimeout", DEFAULT_OPEN_TIMEOUT_MS),
            Settings.size(written.maxClientFrame(), "streams.maxClientFrame", DEFAULT_MAX_CLIENT_FRAME),
            Settings.orDefault(written.maxUnansweredSeeks(), DEFAULT_MAX_UNANSWERED_SEEKS),
            Settings.orDefault(written.allowedOrigins(), DEFAULT_ALLOWED_ORIGINS),
            BufferSettings.DEFAULT_CLIENT_BUFFERS);
    }

    /** Every key at its default. */
    public static StreamSettings defaults() {
        return new StreamSettings(DEFAULT_WRITE_BUFFER_LOW, DEFAULT_WRITE_BUFFER_HIGH, DEFAULT_INIT_SEGMENTS_KEPT,
            DEFAULT_CLIENT_TIMEOUT_MS, DEFAULT_OPEN_TIMEOUT_MS, DEFAULT_MAX_CLIENT_FRAME, DEFAULT_MAX_UNANSWERED_SEEKS,
            DEFAULT_ALLOWED_ORIGINS, BufferSettings.DEFAULT_CLIENT_BUFFERS);
    }

    /** These settings with other timeouts, in milliseconds; for tests and benchmarks that cannot wait the defaults. */
    public StreamSettings withTimeouts(long clientTimeout, long openTimeout) {
        return new StreamSettings(writeBufferLowBytes, writeBufferHighBytes, initSegmentsKept, clientTimeout,
            openTimeout, maxClientFrameBytes, maxUnansweredSeeks, allowedOrigins, clientBuffers);
    }

    /** These settings with other allowed origins. */
    public StreamSettings withAllowedOrigins(List<String> origins) {
        return new StreamSettings(writeBufferLowBytes, writeBufferHighBytes, initSegmentsKept, clientTimeoutMs,
            openTimeoutMs, maxClientFrameBytes, maxUnansweredSeeks, origins, clientBuffers);
    }

    /** These settings with {@code buffers.clientBuffers} at {@code use}. */
    public StreamSettings withClientBuffers(ClientBufferUse use) {
        return new StreamSettings(writeBufferLowBytes, writeBufferHighBytes, initSegmentsKept, clientTimeoutMs,
            openTimeoutMs, maxClientFrameBytes, maxUnansweredSeeks, allowedOrigins, use);
    }

    /**
     * {@code streams:} as the file writes it; a key left out is null. Its connection limits are
     * read by {@link ConnectionSettings}.
     */
    record Section(String writeBufferLow, String writeBufferHigh, Integer initSegmentsKept, String clientTimeout,
                   String openTimeout, String maxClientFrame, Integer maxUnansweredSeeks, List<String> allowedOrigins,
                   String maxConnections, String maxConnectionsPerAddress) {
        static final Section EMPTY = new Section(null, null, null, null, null, null, null, null, null, null);
    }
}

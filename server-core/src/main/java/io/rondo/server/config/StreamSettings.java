package io.rondo.server.config;

/**
 * The stream port's limits and buffers, {@code streams:} in {@code rondo.yaml}. Each key's default
 * is the constant beside it; sizes are bytes, written with K, M, G (powers of 1024).
 *
 * @param writeBufferLowBytes  {@code streams.writeBufferLow}: a client writable again below this many bytes queued
 * @param writeBufferHighBytes {@code streams.writeBufferHigh}: the sender passes a client over above this
 * @param initSegmentsKept     {@code streams.initSegmentsKept}: how many objects' init segments stay in memory
 */
public record StreamSettings(int writeBufferLowBytes, int writeBufferHighBytes,
                             int initSegmentsKept) {

    /** {@code streams.writeBufferLow}. */
    public static final int DEFAULT_WRITE_BUFFER_LOW = 512 * 1024;
    /** {@code streams.writeBufferHigh}. */
    public static final int DEFAULT_WRITE_BUFFER_HIGH = 2 * 1024 * 1024;
    /** {@code streams.initSegmentsKept}. */
    public static final int DEFAULT_INIT_SEGMENTS_KEPT = 256;

    /** Checks every limit once. */
    public StreamSettings {
        Settings.positive(initSegmentsKept, "streams.initSegmentsKept");
        Settings.waterMarks(writeBufferLowBytes, writeBufferHighBytes, "streams");
    }

    /** Every key at its default. */
    public static StreamSettings defaults() {
        return new StreamSettings(DEFAULT_WRITE_BUFFER_LOW, DEFAULT_WRITE_BUFFER_HIGH,
            DEFAULT_INIT_SEGMENTS_KEPT);
    }
}

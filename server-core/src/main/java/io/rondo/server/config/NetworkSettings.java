package io.rondo.server.config;

import io.rondo.scheduler.admission.AdmissionConfig;

/**
 * The outgoing capacity the streams may take together, {@code network:} in {@code rondo.yaml}.
 *
 * @param capacity      {@code network.capacity} as written: {@value BitRates#UNLIMITED} (the default) or a rate
 *                      ({@code 1G}, {@code 100 Mbit/s}; k, M, G: powers of 1000)
 * @param bitsPerSecond {@code network.capacity} in bits a second, or {@link AdmissionConfig#UNLIMITED_NETWORK}
 */
public record NetworkSettings(String capacity, long bitsPerSecond) {

    /** {@code network.capacity}. */
    public static final String DEFAULT_CAPACITY = BitRates.UNLIMITED;

    /** Checks the capacity once. */
    public NetworkSettings {
        Settings.positive(bitsPerSecond, "network.capacity");
    }

    /** The section as written: what it says, the default for the rest. */
    static NetworkSettings read(Section written) {
        String capacity = Settings.orDefault(written.capacity(), DEFAULT_CAPACITY);
        return new NetworkSettings(capacity, BitRates.parse(capacity, "network.capacity"));
    }

    /** {@code network:} as the file writes it; a key left out is null. */
    record Section(String capacity) {
        static final Section EMPTY = new Section(null);
    }
}

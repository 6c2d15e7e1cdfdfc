package io.rondo.server.config;

/**
 * What D-requests' response times are measured against, {@code discrete:} in {@code rondo.yaml}.
 *
 * @param responseBound {@code discrete.responseBound} as written: {@value RondoConfig#AUTO} (the default), sized
 *                      from the round and the reserve, or a duration ({@code 1500ms}, {@code 2s})
 */
public record DiscreteSettings(String responseBound) {

    /** {@code discrete.responseBound}. */
    public static final String DEFAULT_RESPONSE_BOUND = RondoConfig.AUTO;

    private static final String KEY = "discrete.responseBound";

    /** Checks the bound once. */
    public DiscreteSettings {
        if (!RondoConfig.AUTO.equals(responseBound)) {
            Durations.parseMillis(responseBound, KEY);
        }
    }

    /** The section as written: what it says, the default for the rest. */
    static DiscreteSettings read(Section written) {
        return new DiscreteSettings(Settings.orDefault(written.responseBound(), DEFAULT_RESPONSE_BOUND));
    }

    /** The bound in milliseconds: as written, or {@code autoMs} for {@code auto}. */
    public long responseBoundMs(long autoMs) {
        return RondoConfig.AUTO.equals(responseBound) ? autoMs : Durations.parseMillis(responseBound, KEY);
    }

    /** {@code discrete:} as the file writes it; a key left out is null. */
    record Section(String responseBound) {
        static final Section EMPTY = new Section(null);
    }
}

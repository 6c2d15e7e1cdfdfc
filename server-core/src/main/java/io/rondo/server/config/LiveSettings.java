package io.rondo.server.config;

/**
 * Live recordings, {@code live:} in {@code rondo.yaml}. Each key's default is the constant beside it.
 *
 * @param memoryRounds  {@code live.memoryRounds}: how many of a recording's newest fragments its recorder keeps in
 *                      memory, beyond those not yet durable, so viewers at and near the live edge need no disk read
 * @param reserveRounds {@code live.reserveRounds}: how many rounds at the declared peak rate a recording's data file
 *                      is reserved ahead of its writes (papers/002: allocation is the enemy of write latency)
 */
public record LiveSettings(int memoryRounds, int reserveRounds) {

    /** {@code live.memoryRounds}: a viewer a few seconds behind live reads from memory. */
    public static final int DEFAULT_MEMORY_ROUNDS = 8;
    /** {@code live.reserveRounds}: half a minute of writes reserved, reserved again when half is used. */
    public static final int DEFAULT_RESERVE_ROUNDS = 30;

    /** Checks every key once. */
    public LiveSettings {
        Settings.positive(memoryRounds, "live.memoryRounds");
        Settings.positive(reserveRounds, "live.reserveRounds");
    }

    /** The section as written: what it says, the defaults for the rest. */
    static LiveSettings read(Section written) {
        return new LiveSettings(Settings.orDefault(written.memoryRounds(), DEFAULT_MEMORY_ROUNDS),
            Settings.orDefault(written.reserveRounds(), DEFAULT_RESERVE_ROUNDS));
    }

    /** Every key at its default. */
    public static LiveSettings defaults() {
        return new LiveSettings(DEFAULT_MEMORY_ROUNDS, DEFAULT_RESERVE_ROUNDS);
    }

    /** {@code live:} as the file writes it; a key left out is null. */
    record Section(Integer memoryRounds, Integer reserveRounds) {
        static final Section EMPTY = new Section(null, null);
    }
}

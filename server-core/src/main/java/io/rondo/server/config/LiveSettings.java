package io.rondo.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Live recordings, {@code live:} in {@code rondo.yaml}. Each key's default is the constant beside it.
 *
 * @param memoryRounds  {@code live.memoryRounds}: how many of a recording's newest fragments its recorder keeps in
 *                      memory, beyond those not yet durable, so viewers at and near the live edge need no disk read
 * @param reserveRounds {@code live.reserveRounds}: how many rounds at the declared peak rate a recording's data file
 *                      is reserved ahead of its writes (papers/002: allocation is the enemy of write latency)
 * @param retention     {@code live.retention}: per folder, how old and how many bytes of objects it keeps; the
 *                      oldest are deleted first, never one being recorded or read
 */
public record LiveSettings(int memoryRounds, int reserveRounds, List<Retention> retention) {

    /**
     * One folder's retention: its objects older than {@code maxAgeMs}, and the oldest beyond
     * {@code maxBytes} in all, are deleted (0: no limit of that kind).
     *
     * @param folder   the folder, e.g. {@code /cams/}, as objects' names start
     * @param maxAgeMs {@code maxAgeHours} in milliseconds
     * @param maxBytes {@code maxBytes}, with K, M, G, T
     */
    public record Retention(String folder, long maxAgeMs, long maxBytes) {

        public Retention {
            if (folder == null || !folder.startsWith("/")) {
                throw new IllegalArgumentException("live.retention: each entry needs a folder starting with '/', "
                    + "was " + folder);
            }
            folder = folder.endsWith("/") ? folder : folder + "/";
            if (maxAgeMs < 0 || maxBytes < 0 || maxAgeMs == 0 && maxBytes == 0) {
                throw new IllegalArgumentException("live.retention for " + folder + " needs maxAgeHours or maxBytes, "
                    + "positive");
            }
        }
    }

    /** {@code live.memoryRounds}: a viewer a few seconds behind live reads from memory. */
    public static final int DEFAULT_MEMORY_ROUNDS = 8;
    /** {@code live.reserveRounds}: half a minute of writes reserved, reserved again when half is used. */
    public static final int DEFAULT_RESERVE_ROUNDS = 30;

    /** Checks every key once. */
    public LiveSettings {
        Settings.positive(memoryRounds, "live.memoryRounds");
        Settings.positive(reserveRounds, "live.reserveRounds");
        retention = List.copyOf(retention);
    }

    /** The section as written: what it says, the defaults for the rest. */
    static LiveSettings read(Section written) {
        List<Retention> retention = new ArrayList<>();
        for (RetentionSection rule : Settings.orDefault(written.retention(), List.<RetentionSection>of())) {
            long hours = Settings.orDefault(rule.maxAgeHours(), 0);
            retention.add(new Retention(rule.folder(), TimeUnit.HOURS.toMillis(hours),
                rule.maxBytes() == null ? 0 : ByteSizes.parse(rule.maxBytes(), "live.retention.maxBytes")));
        }
        return new LiveSettings(Settings.orDefault(written.memoryRounds(), DEFAULT_MEMORY_ROUNDS),
            Settings.orDefault(written.reserveRounds(), DEFAULT_RESERVE_ROUNDS), retention);
    }

    /** Every key at its default: no retention. */
    public static LiveSettings defaults() {
        return new LiveSettings(DEFAULT_MEMORY_ROUNDS, DEFAULT_RESERVE_ROUNDS, List.of());
    }

    /** These settings with other retention rules. */
    public LiveSettings withRetention(List<Retention> rules) {
        return new LiveSettings(memoryRounds, reserveRounds, rules);
    }

    /** {@code live:} as the file writes it; a key left out is null. */
    record Section(Integer memoryRounds, Integer reserveRounds, List<RetentionSection> retention) {
        static final Section EMPTY = new Section(null, null, null);
    }

    /** One {@code live.retention} entry as written. */
    record RetentionSection(String folder, Integer maxAgeHours, String maxBytes) {
    }
}

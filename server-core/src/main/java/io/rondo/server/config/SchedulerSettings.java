package io.rondo.server.config;

import io.rondo.scheduler.policy.SchedulingPolicy;

/**
 * The scheduling policy and the round, {@code scheduler:} in {@code rondo.yaml}; the same
 * section's limits on the disks' queues are {@link DiskSettings}. Each key's default is the
 * constant beside it.
 *
 * @param policy  {@code scheduler.policy}: the scheduling policy, a preset or a point of the framework, as written
 * @param roundMs {@code scheduler.roundMs}: the length of a round in milliseconds
 */
public record SchedulerSettings(String policy, long roundMs) {

    /** {@code scheduler.policy}. */
    public static final String DEFAULT_POLICY = "mixed-incremental-scan";
    /** {@code scheduler.roundMs}. */
    public static final long DEFAULT_ROUND_MS = 1000;

    /** Checks every value once. */
    public SchedulerSettings {
        Settings.positive(roundMs, "scheduler.roundMs");
        SchedulingPolicy.parse(policy);
    }

    /** The section as written: what it says, the defaults for the rest. */
    static SchedulerSettings read(Section written) {
        return new SchedulerSettings(Settings.orDefault(written.policy(), DEFAULT_POLICY),
            Settings.orDefault(written.roundMs(), DEFAULT_ROUND_MS));
    }

    /** {@code scheduler.policy}, parsed. */
    public SchedulingPolicy schedulingPolicy() {
        return SchedulingPolicy.parse(policy);
    }

    /** {@code scheduler:} as the file writes it; a key left out is null. */
    record Section(String policy, Long roundMs, String maxRead, Integer queue, Integer generatorQueue) {
        static final Section EMPTY = new Section(null, null, null, null, null);
    }
}

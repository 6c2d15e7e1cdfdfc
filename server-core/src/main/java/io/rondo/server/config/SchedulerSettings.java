package io.rondo.server.config;

import io.rondo.scheduler.cycle.CombinationSettings;
import io.rondo.scheduler.policy.SchedulingPolicy;

/**
 * The scheduling policy, the round and the time cycle, {@code scheduler:} in {@code rondo.yaml};
 * the same section's limits on the disks' queues are {@link DiskSettings}. Each key's default is
 * the constant beside it.
 *
 * @param policy              {@code scheduler.policy}: the scheduling policy, a preset or a point of the framework,
 *                            as written
 * @param roundMs             {@code scheduler.roundMs}: the length of a round, and of the fragments ingest cuts, in
 *                            milliseconds; the shortest time cycle
 * @param combination         {@code scheduler.combination}: whether streams are combined and the time cycle adapts
 *                            (papers/003)
 * @param maxCycleMs          {@code scheduler.maxCycleMs}: the longest time cycle, a power of two of rounds
 * @param memoryThreshold     {@code scheduler.memoryThreshold}: u_mT
 * @param cycleThreshold      {@code scheduler.cycleThreshold}: u_tT
 * @param differenceThreshold {@code scheduler.differenceThreshold}: u_dT
 */
public record SchedulerSettings(String policy, long roundMs, boolean combination, long maxCycleMs,
                                double memoryThreshold, double cycleThreshold, double differenceThreshold) {

    /** {@code scheduler.policy}. */
    public static final String DEFAULT_POLICY = "mixed-incremental-scan";
    /** {@code scheduler.roundMs}. */
    public static final long DEFAULT_ROUND_MS = 1000;
    /** {@code scheduler.maxCycleMs}, in rounds. */
    public static final int DEFAULT_MAX_CYCLE_ROUNDS = 16;
    /**
     * Figure 2's UNIT in the server: a cycle is a power of two of rounds (see
     * {@code io.rondo.server.stream.CycleControl}), so a shortening halves it.
     */
    public static final double SHORTEN_UNIT = 0.5;

    /** Checks every value once. */
    public SchedulerSettings {
        Settings.positive(roundMs, "scheduler.roundMs");
        SchedulingPolicy.parse(policy);
        long rounds = maxCycleMs / roundMs;
        if (maxCycleMs % roundMs != 0 || Long.bitCount(rounds) != 1 || rounds > 32) {
            throw new IllegalArgumentException("scheduler.maxCycleMs must be a power of two of rounds of "
                + roundMs + " ms (scheduler.roundMs), up to 32 of them; was " + maxCycleMs);
        }
        combination(roundMs, combination, maxCycleMs, memoryThreshold, cycleThreshold, differenceThreshold);
    }

    /** The section as written: what it says, the defaults for the rest. */
    static SchedulerSettings read(Section written) {
        long roundMs = Settings.orDefault(written.roundMs(), DEFAULT_ROUND_MS);
        return new SchedulerSettings(Settings.orDefault(written.policy(), DEFAULT_POLICY), roundMs,
            Settings.orDefault(written.combination(), true),
            Settings.orDefault(written.maxCycleMs(), roundMs * DEFAULT_MAX_CYCLE_ROUNDS),
            Settings.orDefault(written.memoryThreshold(), CombinationSettings.DEFAULT_MEMORY_THRESHOLD),
            Settings.orDefault(written.cycleThreshold(), CombinationSettings.DEFAULT_CYCLE_THRESHOLD),
            Settings.orDefault(written.differenceThreshold(), CombinationSettings.DEFAULT_DIFFERENCE_THRESHOLD));
    }

    /** {@code scheduler.policy}, parsed. */
    public SchedulingPolicy schedulingPolicy() {
        return SchedulingPolicy.parse(policy);
    }

    /** Stream combination's settings: cycles from one round to {@code maxCycleMs}, halved to shorten. */
    public CombinationSettings combinationSettings() {
        return combination(roundMs, combination, maxCycleMs, memoryThreshold, cycleThreshold, differenceThreshold);
    }

    private static CombinationSettings combination(long roundMs, boolean on, long maxCycleMs,
                                                   double memory, double cycle, double difference) {
        long roundNs = roundMs * 1_000_000;
        try {
            return new CombinationSettings(on, memory, cycle, difference, SHORTEN_UNIT, roundNs, roundNs,
                maxCycleMs * 1_000_000);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("scheduler: " + e.getMessage(), e);
        }
    }

    /** {@code scheduler:} as the file writes it; a key left out is null. */
    record Section(String policy, Long roundMs, String maxRead, Integer queue, Integer generatorQueue,
                   Boolean combination, Long maxCycleMs, Double memoryThreshold, Double cycleThreshold,
                   Double differenceThreshold) {
        static final Section EMPTY = new Section(null, null, null, null, null, null, null, null, null, null);
    }
}

package io.rondo.scheduler.cycle;

/**
 * The settings of stream combination (papers/003 Section 2.2 and Figure 2), each with its default.
 *
 * <p>The three thresholds are those of Figure 2's CheckSchedule: a reschedule is considered only
 * when the memory utilization {@code u_m} passes {@code memoryThreshold} or the cycle utilization
 * {@code u_t} passes {@code cycleThreshold}, and the two differ by more than
 * {@code differenceThreshold}. The paper gives no values; the defaults (0.5, 0.5 and 0.1) make it
 * act once either resource is half used, early enough to be proactive (its Section 2.1 (ii)).
 *
 * @param enabled             false: the schedule is never changed (a fixed time cycle)
 * @param memoryThreshold     {@code u_mT}, in {@code (0, 1]} (default 0.5)
 * @param cycleThreshold      {@code u_tT}, in {@code (0, 1]} (default 0.5)
 * @param differenceThreshold {@code u_dT}, in {@code [0, 1)} (default 0.1)
 * @param shortenUnit         Figure 2's UNIT: the share of the cycle a shortening takes off, in
 *                            {@code (0, 0.5]} (default 0.1); the result is rounded to the quantum
 * @param quantumNs           every cycle is a whole number of these: the stored fragment's
 *                            playback time in the server, so that an IO is whole fragments
 * @param minCycleNs          the shortest cycle, a multiple of the quantum (default one quantum)
 * @param maxCycleNs          the longest cycle, a multiple of the quantum (default 16 quanta)
 */
public record CombinationSettings(boolean enabled, double memoryThreshold, double cycleThreshold,
                                  double differenceThreshold, double shortenUnit, long quantumNs, long minCycleNs,
                                  long maxCycleNs) {

    public static final double DEFAULT_MEMORY_THRESHOLD = 0.5;
    public static final double DEFAULT_CYCLE_THRESHOLD = 0.5;
    public static final double DEFAULT_DIFFERENCE_THRESHOLD = 0.1;
    public static final double DEFAULT_SHORTEN_UNIT = 0.1;
    /** The default longest cycle, in quanta. */
    public static final int DEFAULT_MAX_QUANTA = 16;

    public CombinationSettings {
        requireShare(memoryThreshold, "the memory utilization threshold u_mT");
        requireShare(cycleThreshold, "the cycle utilization threshold u_tT");
        if (!(differenceThreshold >= 0 && differenceThreshold < 1)) {
            throw new IllegalArgumentException("the difference threshold u_dT must be in [0, 1), was "
                + differenceThreshold);
        }
        if (!(shortenUnit > 0 && shortenUnit <= 0.5)) {
            throw new IllegalArgumentException("the shortening UNIT must be a share of the cycle in (0, 0.5], was "
                + shortenUnit);
        }
        if (quantumNs < 1_000_000) {
            throw new IllegalArgumentException("the cycle quantum must be at least 1 ms, was " + quantumNs + " ns");
        }
        requireQuanta(minCycleNs, quantumNs, "the shortest cycle");
        requireQuanta(maxCycleNs, quantumNs, "the longest cycle");
        if (maxCycleNs < minCycleNs) {
            throw new IllegalArgumentException("the longest cycle (" + maxCycleNs
                + " ns) is shorter than the shortest (" + minCycleNs + " ns)");
        }
    }

    /** Combination on, every setting at its default, cycles in whole multiples of {@code quantumNs}. */
    public static CombinationSettings defaults(long quantumNs) {
        return new CombinationSettings(true, DEFAULT_MEMORY_THRESHOLD, DEFAULT_CYCLE_THRESHOLD,
            DEFAULT_DIFFERENCE_THRESHOLD, DEFAULT_SHORTEN_UNIT, quantumNs, quantumNs,
            Math.multiplyExact(quantumNs, (long) DEFAULT_MAX_QUANTA));
    }

    /** These settings with combination turned on or off. */
    public CombinationSettings withEnabled(boolean on) {
        return new CombinationSettings(on, memoryThreshold, cycleThreshold, differenceThreshold, shortenUnit,
            quantumNs, minCycleNs, maxCycleNs);
    }

    /** These settings with other cycle bounds. */
    public CombinationSettings withCycleBounds(long minNs, long maxNs) {
        return new CombinationSettings(enabled, memoryThreshold, cycleThreshold, differenceThreshold, shortenUnit,
            quantumNs, minNs, maxNs);
    }

    /** These settings with other thresholds u_mT, u_tT and u_dT. */
    public CombinationSettings withThresholds(double memory, double cycle, double difference) {
        return new CombinationSettings(enabled, memory, cycle, difference, shortenUnit, quantumNs, minCycleNs,
            maxCycleNs);
    }

    /**
     * Checks that a cycle length is one these settings allow.
     *
     * @throws IllegalArgumentException if it is not a multiple of the quantum within the bounds
     */
    public long checkCycle(long cycleNs) {
        requireQuanta(cycleNs, quantumNs, "a cycle");
        if (cycleNs < minCycleNs || cycleNs > maxCycleNs) {
            throw new IllegalArgumentException("a cycle of " + cycleNs + " ns is outside [" + minCycleNs + ", "
                + maxCycleNs + "] ns");
        }
        return cycleNs;
    }

    private static void requireShare(double value, String what) {
        if (!(value > 0 && value <= 1)) {
            throw new IllegalArgumentException(what + " must be in (0, 1], was " + value);
        }
    }

    /** Checks {@code ns} is a positive whole number of {@code quantumNs}, naming {@code what} if not. */
    static void requireQuanta(long ns, long quantumNs, String what) {
        if (ns <= 0 || ns % quantumNs != 0) {
            throw new IllegalArgumentException(what + " must be a positive whole number of " + quantumNs
                + " ns quanta, was " + ns + " ns");
        }
    }
}

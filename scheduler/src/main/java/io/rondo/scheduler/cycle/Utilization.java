package io.rondo.scheduler.cycle;

import java.util.function.LongUnaryOperator;

/**
 * How full a schedule keeps the two resources stream combination balances (papers/003 Section
 * 2.2): the memory utilization {@code u_m}, the buffer memory the schedule takes over the memory
 * there is, and the time-cycle utilization {@code u_t}, the disk time a cycle's IOs take over the
 * cycle's length. Each is the worst over {@link CycleSchedule#horizon()}: the pairs' two phases,
 * the cycle a combination starts with its extra read, a longer cycle waiting. The simulator and
 * the server each give their own: from a modelled disk, or from the disk's profile and the buffer
 * pool; {@link #charged} builds the usual one.
 */
public interface Utilization {

    /** {@code u_m}: the schedule's buffer memory over the memory available; above 1 it does not fit. */
    double memory(CycleSchedule schedule);

    /** {@code u_t}: a cycle's IO time over the cycle's length, the worst cycle; above 1 it does not fit. */
    double cycle(CycleSchedule schedule);

    /** True if the schedule fits both resources: the admission rule, and what every change must keep. */
    default boolean fits(CycleSchedule schedule) {
        return memory(schedule) <= 1 && cycle(schedule) <= 1;
    }

    /**
     * The usual utilization: each IO charged {@code ioNs.applyAsLong(bytes)} of disk time (access
     * and transfer), and memory double-buffered ({@link CycleSchedule#reservedBytes()}) against
     * {@code memoryBytes}.
     */
    static Utilization charged(LongUnaryOperator ioNs, long memoryBytes) {
        if (memoryBytes <= 0) {
            throw new IllegalArgumentException("the buffer memory must be positive, was " + memoryBytes);
        }
        return new Utilization() {
            @Override
            public double memory(CycleSchedule schedule) {
                long worst = 0;
                for (CycleSchedule cycle : schedule.horizon()) {
                    worst = Math.max(worst, cycle.reservedBytes());
                }
                return worst / (double) memoryBytes;
            }

            @Override
            public double cycle(CycleSchedule schedule) {
                return cycleOf(schedule, ioNs);
            }
        };
    }

    /** {@code u_t} of a schedule, each IO charged {@code ioNs.applyAsLong(bytes)}: the worst cycle of its horizon. */
    static double cycleOf(CycleSchedule schedule, LongUnaryOperator ioNs) {
        double worst = 0;
        for (CycleSchedule cycle : schedule.horizon()) {
            long busyNs = 0;
            for (Read read : cycle.reads()) {
                busyNs += ioNs.applyAsLong(read.bytes());
            }
            worst = Math.max(worst, busyNs / (double) cycle.cycleNs());
        }
        return worst;
    }
}

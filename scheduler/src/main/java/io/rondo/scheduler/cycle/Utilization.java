package io.rondo.scheduler.cycle;

/**
 * How full a schedule keeps the two resources stream combination balances (papers/003 Section
 * 2.2): the memory utilization {@code u_m}, the buffer memory the schedule takes over the memory
 * there is, and the time-cycle utilization {@code u_t}, the disk time a cycle's IOs take over the
 * cycle's length. Each is the worst over {@link CycleSchedule#horizon()}: the pairs' two phases,
 * the cycle a combination starts with its extra read, a longer cycle waiting. The simulator and
 * the server each give their own: from a modelled disk, or from the disk's profile and the buffer
 * pool.
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
}

package io.rondo.scheduler.sim.cycle;

import io.rondo.scheduler.cycle.CycleSchedule;
import io.rondo.scheduler.cycle.Utilization;

/**
 * {@code u_m} and {@code u_t} as papers/003 Section 2.2 defines them, on its disk: each IO is
 * charged the average access and its transfer, and memory is counted as {@code accounting}
 * says. Each is the worst over the schedule's horizon (the pairs' two phases, a cycle waiting).
 *
 * @param disk        the disk the IOs are charged on
 * @param memoryBytes the buffer memory there is
 * @param accounting  how a schedule's memory is counted
 */
public record CycleUtilization(PaperDisk disk, long memoryBytes, MemoryAccounting accounting) implements Utilization {

    @Override
    public double memory(CycleSchedule schedule) {
        long worst = 0;
        for (CycleSchedule cycle : schedule.horizon()) {
            worst = Math.max(worst, accounting.bytes(cycle));
        }
        return worst / (double) memoryBytes;
    }

    @Override
    public double cycle(CycleSchedule schedule) {
        return Utilization.cycleOf(schedule, disk::chargedNs);
    }

    /** The memory this cycle of the schedule takes, as counted. */
    public long bytes(CycleSchedule schedule) {
        return accounting.bytes(schedule);
    }
}

package io.rondo.scheduler.sim.cycle;

import io.rondo.scheduler.cycle.CycleSchedule;
import io.rondo.scheduler.cycle.ScheduledStream;

/** How the buffer memory of a schedule is counted: the paper's Equation 2, or Rondo's double buffering. */
public enum MemoryAccounting {

    /**
     * papers/003 Equation 2: one IO's data per stream, {@code T R} uncombined and {@code 2 T R}
     * combined, as if each read arrived just as the last one's data ran out.
     */
    EQUATION_2 {
        @Override
        long bytes(CycleSchedule schedule) {
            long bytes = 0;
            for (ScheduledStream stream : schedule.streams()) {
                bytes += stream.bytesOf(schedule.periodCycles(stream.id()) * schedule.cycleNs());
            }
            return bytes;
        }
    },

    /**
     * What Rondo reserves: each stream holds what it has not played yet and what its IO reads,
     * since the IO may complete at the cycle's start ({@link CycleSchedule#reservedBytes()}):
     * {@code 2 T R} uncombined, {@code 3 T R} for the member of a pair that reads.
     */
    DOUBLE_BUFFERED {
        @Override
        long bytes(CycleSchedule schedule) {
            return schedule.reservedBytes();
        }
    };

    /** The memory one cycle of the schedule takes. */
    abstract long bytes(CycleSchedule schedule);
}

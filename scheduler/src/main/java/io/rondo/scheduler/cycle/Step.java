package io.rondo.scheduler.cycle;

/**
 * What {@link StreamCombination#check} did at a cycle's start, and the schedule to read the cycle with.
 *
 * @param schedule  the schedule for this cycle: the one checked if nothing was done
 * @param operation what was done
 * @param first     COMBINE: the stream that reads two cycles' data now; SPLIT: one of the pair;
 *                  otherwise {@link ScheduledStream#UNCOMBINED}
 * @param second    COMBINE and SPLIT: the other stream of the pair; otherwise {@link ScheduledStream#UNCOMBINED}
 * @param memory    {@code u_m} of {@code schedule}
 * @param cycle     {@code u_t} of {@code schedule}
 */
public record Step(CycleSchedule schedule, Operation operation, long first, long second, double memory,
                   double cycle) {

    /** The operations of papers/003 Figure 2's Reschedule, and none. */
    public enum Operation {
        /** The schedule is kept. */
        NONE,
        /** The two lowest-rate uncombined streams are combined. */
        COMBINE,
        /** The highest-rate pair is split. */
        SPLIT,
        /** The cycle doubles (two cycles on), every pair becoming two uncombined streams. */
        DOUBLE,
        /** The cycle is shortened by UNIT, from this cycle on. */
        SHORTEN
    }

    /** True if the schedule changed. */
    public boolean changed() {
        return operation != Operation.NONE;
    }

    @Override
    public String toString() {
        String streams = switch (operation) {
            case COMBINE, SPLIT -> " " + first + "+" + second;
            default -> "";
        };
        return String.format(java.util.Locale.ROOT, "%s%s -> %s (u_m %.3f, u_t %.3f)", operation, streams, schedule,
            memory, cycle);
    }
}

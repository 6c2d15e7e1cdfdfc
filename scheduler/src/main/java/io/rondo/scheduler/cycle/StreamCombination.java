package io.rondo.scheduler.cycle;

import java.util.List;
import java.util.function.Function;

import io.rondo.scheduler.cycle.Step.Operation;

/**
 * The stream combination scheduler of papers/003 Figure 2: {@link #check} is its CheckSchedule,
 * called at the start of every cycle, which calls Reschedule when it is due. Reschedule makes
 * one change: when memory is the scarcer ({@code u_m > u_t}) it splits the highest-rate pair, or
 * shortens the cycle by UNIT if there is none; otherwise it combines the two lowest-rate
 * uncombined streams, or doubles the cycle if fewer than two are uncombined. If the two
 * utilizations still differ by more than {@code u_dT} afterwards, it raises the SFLAG, and the
 * next cycle reschedules again whatever the thresholds: so several changes are spread one per
 * cycle, keeping the transitory extra reads of combining to one pair a cycle (heuristic 4).
 *
 * <p><b>The direction of the difference test.</b> The paper's text (heuristic 3) reschedules when
 * a utilization passes its threshold and the two differ by <em>more</em> than {@code u_dT};
 * Figure 2 prints {@code abs(u_m-u_t) < u_dT}. Rondo follows the text: the point of a reschedule
 * is to move load from the scarcer resource to the other, which is worth it only when they are
 * out of balance; with {@code <} it would reshuffle a balanced schedule and leave an unbalanced
 * one alone until it hits the bottleneck. Figure 2's own SFLAG line ({@code > u_dT} keeps
 * rescheduling) agrees with the text.
 *
 * <p>Two guards the paper leaves implicit: a change is made only if the new schedule still fits
 * ({@code u_m <= 1} and {@code u_t <= 1}, the combination's extra read included), and the cycle
 * stays within the settings' bounds; a change that cannot be made is not made (NONE). While a
 * doubled cycle waits to take effect, nothing changes. Not thread-safe: one per disk, called by
 * whoever starts its cycles.
 */
public final class StreamCombination {

    private final CombinationSettings settings;
    private final Utilization utilization;
    private final Function<CycleSchedule, List<ScheduledStream>> pairing;
    private boolean sflag;

    /**
     * @param settings    the thresholds, UNIT and cycle bounds; disabled, {@link #check} never changes a schedule
     * @param utilization how full a schedule keeps the memory and the disk, as the caller measures them
     */
    public StreamCombination(CombinationSettings settings, Utilization utilization) {
        this(settings, utilization, CycleSchedule::lowestRateUncombined);
    }

    /**
     * Stream combination that combines the two streams {@code pairing} picks from a schedule's
     * uncombined ones (fewer than two: none to combine, so the cycle doubles) instead of the two of
     * the lowest rates: for a server whose rounds favour some pairs (Rondo's pairs streams that read
     * in the same rounds).
     */
    public StreamCombination(CombinationSettings settings, Utilization utilization,
                             Function<CycleSchedule, List<ScheduledStream>> pairing) {
        if (settings == null || utilization == null || pairing == null) {
            throw new IllegalArgumentException("stream combination needs its settings, a utilization and a pairing");
        }
        this.settings = settings;
        this.utilization = utilization;
        this.pairing = pairing;
    }

    /** The settings it was made with. */
    public CombinationSettings settings() {
        return settings;
    }

    /** Figure 2's SFLAG: true if the next check reschedules whatever the thresholds. */
    public boolean rescheduling() {
        return sflag;
    }

    /**
     * CheckSchedule, at the start of a cycle: the schedule to read this cycle with, changed by at
     * most one operation.
     */
    public Step check(CycleSchedule schedule) {
        double memory = utilization.memory(schedule);
        double cycle = utilization.cycle(schedule);
        if (!settings.enabled() || schedule.changePending() || schedule.size() == 0) {
            sflag = false;
            return unchanged(schedule, memory, cycle);
        }
        boolean due = (memory > settings.memoryThreshold() || cycle > settings.cycleThreshold())
            && Math.abs(memory - cycle) > settings.differenceThreshold();
        return due || sflag ? reschedule(schedule, memory, cycle) : unchanged(schedule, memory, cycle);
    }

    /** Reschedule: one operation towards the scarcer resource's relief, if it can be made and fits. */
    private Step reschedule(CycleSchedule schedule, double memory, double cycle) {
        sflag = false;
        Step step = memory > cycle ? relieveMemory(schedule) : relieveDisk(schedule);
        if (step == null) {
            return unchanged(schedule, memory, cycle);
        }
        if (step.memory() > 1 || step.cycle() > 1) {
            return unchanged(schedule, memory, cycle);
        }
        sflag = Math.abs(step.memory() - step.cycle()) > settings.differenceThreshold();
        return step;
    }

    private Step relieveMemory(CycleSchedule schedule) {
        var pair = schedule.highestRatePair();
        if (pair.isPresent()) {
            return step(schedule.splitHighestRate(), Operation.SPLIT, pair.get().id(), pair.get().partner());
        }
        long shorterNs = schedule.shortenedCycleNs(settings.shortenUnit());
        if (shorterNs < settings.minCycleNs() || shorterNs >= schedule.cycleNs()) {
            return null;
        }
        return step(schedule.withCycleNs(shorterNs), Operation.SHORTEN, ScheduledStream.UNCOMBINED,
            ScheduledStream.UNCOMBINED);
    }

    private Step relieveDisk(CycleSchedule schedule) {
        List<ScheduledStream> pair = pairing.apply(schedule);
        if (pair.size() == 2) {
            long first = pair.get(0).id();
            long second = pair.get(1).id();
            return step(schedule.combine(first, second), Operation.COMBINE, first, second);
        }
        if (schedule.cycleNs() * 2 > settings.maxCycleNs()) {
            return null;
        }
        return step(schedule.doubled(), Operation.DOUBLE, ScheduledStream.UNCOMBINED, ScheduledStream.UNCOMBINED);
    }

    private Step step(CycleSchedule changed, Operation operation, long first, long second) {
        return new Step(changed, operation, first, second, utilization.memory(changed), utilization.cycle(changed));
    }

    private static Step unchanged(CycleSchedule schedule, double memory, double cycle) {
        return new Step(schedule, Operation.NONE, ScheduledStream.UNCOMBINED, ScheduledStream.UNCOMBINED, memory,
            cycle);
    }
}

package io.rondo.scheduler.sim.cycle;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.DiskScheduler;
import io.rondo.scheduler.ScheduleObserver;
import io.rondo.scheduler.cycle.CombinationSettings;
import io.rondo.scheduler.cycle.CycleSchedule;
import io.rondo.scheduler.cycle.Read;
import io.rondo.scheduler.cycle.Step;
import io.rondo.scheduler.cycle.StreamCombination;
import io.rondo.scheduler.policy.SchedulingPolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One run of papers/003 Section 3, IO by IO in virtual time: streams arrive, are admitted if the
 * schedule with them still fits ({@code u_t <= 1} and {@code u_m <= 1}, the same rule with or
 * without combination), play, and leave; at each cycle's start {@link StreamCombination} may
 * change the schedule (turned off, the cycle is fixed: the baseline); and the cycle's IOs are read
 * on the modelled disk by the same {@link DiskScheduler} the server runs, one sweep in SCAN order,
 * with seek, a random rotational delay and transfer. A cycle change happens only at a cycle's
 * start; the scheduler is made anew for the new length, the head where it was.
 *
 * <p>A glitch is an IO that completes after its stream's data ran out: each stream plays from the
 * moment its first cycle's schedule says ({@code leadNs} after its cycle's start) and holds what
 * its completed IOs read. An IO completed after its cycle's end is counted apart as late.
 */
public final class CycleSimulation implements ScheduleObserver {

    private static final long MIB = 1 << 20;
    /** Each stream's data is one contiguous file; its reads walk through it from a random place. */
    private static final long FILE_ROOM_BYTES = 10_000 * MIB;

    private record Arrival(long timeNs, long bytesPerSecond, long durationNs, long position) {
    }

    private static final class Playing {
        final long position;
        final long durationNs;
        long playStartNs = -1;
        long endNs = Long.MAX_VALUE;
        long heldUntilNs;
        long bytesRead;

        Playing(long position, long durationNs) {
            this.position = position;
            this.durationNs = durationNs;
        }
    }

    private final CycleWorkload workload;
    private final CycleUtilization utilization;
    private final StreamCombination combination;
    private final SplittableRandom rotations;
    private final List<Arrival> arrivals;
    private final Map<Long, Playing> playing = new HashMap<>();
    private final Map<Long, Long> ioNsByRequest = new HashMap<>();

    private DiskScheduler scheduler;
    private long headPosition;
    private long nextRequestId;
    private long glitches;
    private long lateIos;
    private long ios;

    private CycleSimulation(CycleWorkload workload, CombinationSettings settings) {
        this.workload = workload;
        this.utilization = workload.utilization();
        this.combination = new StreamCombination(settings, utilization);
        SplittableRandom random = new SplittableRandom(workload.seed());
        this.rotations = random.split();
        this.arrivals = arrivals(workload, random);
        this.headPosition = workload.disk().capacityBytes() / 2;
    }

    /**
     * Runs the workload from a cycle of {@code initialCycleNs}: with stream combination if
     * {@code settings} enable it, else with that cycle fixed.
     */
    public static CycleRun run(CycleWorkload workload, long initialCycleNs, CombinationSettings settings) {
        settings.checkCycle(initialCycleNs);
        if (settings.quantumNs() != workload.quantumNs()) {
            throw new IllegalArgumentException("the settings' quantum (" + settings.quantumNs()
                + " ns) is not the workload's (" + workload.quantumNs() + " ns)");
        }
        return new CycleSimulation(workload, settings).run(initialCycleNs);
    }

    /** The settings both schedulers of a run use: cycles of the workload's quantum, from 100 ms to 10 s. */
    public static CombinationSettings settings(CycleWorkload workload, boolean combine) {
        long quantum = workload.quantumNs();
        return CombinationSettings.defaults(quantum).withCycleBounds(quantum, Math.max(quantum, 10_000_000_000L
            / quantum * quantum)).withEnabled(combine);
    }

    private CycleRun run(long initialCycleNs) {
        CycleSchedule schedule = CycleSchedule.start(initialCycleNs, workload.quantumNs());
        List<CycleRun.Sample> samples = new ArrayList<>();
        int[] operations = new int[Step.Operation.values().length];
        int next = 0;
        int admitted = 0;
        int peakStreams = 0;
        long peakMemory = 0;
        long nowNs = 0;
        while (nowNs < workload.runNs()) {
            schedule = depart(schedule, nowNs);
            List<Long> joined = new ArrayList<>();
            for (; next < arrivals.size() && arrivals.get(next).timeNs() <= nowNs; next++) {
                Arrival arrival = arrivals.get(next);
                CycleSchedule candidate = schedule.withStream(next, arrival.bytesPerSecond());
                if (utilization.fits(candidate)) {
                    schedule = candidate;
                    playing.put((long) next, new Playing(arrival.position(), arrival.durationNs()));
                    joined.add((long) next);
                    admitted++;
                }
            }
            Step step = combination.check(schedule);
            schedule = step.schedule();
            operations[step.operation().ordinal()]++;
            for (long id : joined) {
                Playing stream = playing.get(id);
                stream.playStartNs = nowNs + schedule.stream(id).orElseThrow().leadNs();
                stream.heldUntilNs = stream.playStartNs;
                stream.endNs = stream.playStartNs + stream.durationNs;
            }
            long memory = utilization.bytes(schedule);
            peakMemory = Math.max(peakMemory, memory);
            peakStreams = Math.max(peakStreams, schedule.size());
            samples.add(new CycleRun.Sample(nowNs, schedule.size(), schedule.combinedCount(), memory,
                schedule.cycleNs(), step.memory(), step.cycle()));
            readCycle(schedule, nowNs);
            nowNs += schedule.cycleNs();
            schedule = schedule.next();
        }
        return new CycleRun(workload.name(), combination.settings().enabled() ? "combination" : "fixed",
            initialCycleNs, samples, next, admitted, peakStreams, glitches, lateIos, ios,
            operations[Step.Operation.COMBINE.ordinal()], operations[Step.Operation.SPLIT.ordinal()],
            operations[Step.Operation.DOUBLE.ordinal()], operations[Step.Operation.SHORTEN.ordinal()],
            schedule.cycleNs(), peakMemory);
    }

    private CycleSchedule depart(CycleSchedule schedule, long nowNs) {
        CycleSchedule left = schedule;
        for (Iterator<Map.Entry<Long, Playing>> it = playing.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Playing> entry = it.next();
            if (entry.getValue().endNs <= nowNs) {
                left = left.withoutStream(entry.getKey());
                it.remove();
            }
        }
        return left;
    }

    /** Reads one cycle's IOs on the modelled disk, in the order the disk scheduler chooses. */
    private void readCycle(CycleSchedule schedule, long startNs) {
        if (scheduler == null || scheduler.roundLengthNs() != schedule.cycleNs()) {
            scheduler = new DiskScheduler(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, workload.disk(), schedule.cycleNs(),
                headPosition, this);
        }
        List<ContinuousRequest> requests = new ArrayList<>();
        ioNsByRequest.clear();
        for (Read read : schedule.reads()) {
            Playing stream = playing.get(read.streamId());
            long position = stream.position + stream.bytesRead % FILE_ROOM_BYTES;
            ContinuousRequest request = new ContinuousRequest(nextRequestId++, read.streamId(), position, read.bytes());
            ioNsByRequest.put(request.id(), read.ioNs());
            stream.bytesRead += read.bytes();
            requests.add(request);
        }
        scheduler.startRound(startNs, requests);
        long nowNs = startNs;
        for (DiskRequest request = scheduler.next(nowNs); request != null; request = scheduler.next(nowNs)) {
            long rotationNs = (long) (rotations.nextDouble() * workload.disk().worstCaseRotationNs());
            nowNs += Math.max(1, workload.disk().seekNs(headPosition, request.position()) + rotationNs
                + workload.disk().transferNs(request.position(), request.sizeBytes()));
            headPosition = request.position();
            scheduler.ioCompleted(nowNs);
        }
    }

    @Override
    public void continuousCompleted(ContinuousRequest request, long nowNs) {
        ios++;
        Playing stream = playing.get(request.streamId());
        if (nowNs - stream.heldUntilNs > 0) {
            glitches++;
        }
        stream.heldUntilNs += ioNsByRequest.get(request.id());
    }

    @Override
    public void glitch(ContinuousRequest request, long nowNs, boolean discarded) {
        lateIos++;
        continuousCompleted(request, nowNs);
    }

    /** The arrivals of the whole run, drawn first so that every scheduler sees the same streams. */
    private static List<Arrival> arrivals(CycleWorkload workload, SplittableRandom random) {
        List<Arrival> list = new ArrayList<>();
        long room = workload.disk().capacityBytes() - FILE_ROOM_BYTES;
        long timeNs = 0;
        while (true) {
            timeNs += workload.minGapNs() + (long) (random.nextDouble() * (workload.maxGapNs() - workload.minGapNs()));
            if (timeNs >= workload.runNs()) {
                return list;
            }
            long rate = workload.rates().sampleBytesPerSecond(random, (double) timeNs / workload.runNs());
            long duration = workload.minDurationNs()
                + (long) (random.nextDouble() * (workload.maxDurationNs() - workload.minDurationNs()));
            list.add(new Arrival(timeNs, rate, duration, (long) (random.nextDouble() * room)));
        }
    }
}

package io.rondo.scheduler.sim;

import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.policy.SchedulingPolicy;

/**
 * The simulation testbed of papers/001 Section 5.1: several disks, each with its own scheduler,
 * in virtual time. {@link #run} gives one point of a curve.
 *
 * <p>A point is saturated when its D-queue grows without bound: either some disk's backlog
 * passes {@link DiskSimulation#BACKLOG_LIMIT} (and the run stops early), or the backlog of all
 * disks together climbs, round over round, by more than half a percent of the arrivals.
 */
public final class Simulator {

    /** The share of each round's arrivals by which a backlog must grow per round to count as unbounded. */
    static final double GROWTH_SHARE = 0.005;

    private Simulator() {
    }

    /** Simulates one policy under one workload on disks of the given model. */
    public static SimulationResult run(SchedulingPolicy policy, DiskModel disk, Workload workload) {
        int measured = workload.rounds();
        long[] backlogByRound = new long[measured];
        ResponseTimes responses = new ResponseTimes();
        long glitches = 0;
        long completed = 0;
        long busyNs = 0;
        long continuousBusyNs = 0;
        boolean overflowed = false;
        for (int d = 0; d < workload.disks() && !overflowed; d++) {
            DiskSimulation simulation = new DiskSimulation(policy, disk, workload, d);
            for (int r = 0; r < workload.warmupRounds() + measured; r++) {
                simulation.runRound();
                int backlog = simulation.backlog();
                if (r >= workload.warmupRounds()) {
                    backlogByRound[r - workload.warmupRounds()] += backlog;
                }
                if (backlog > DiskSimulation.BACKLOG_LIMIT) {
                    overflowed = true;
                    break;
                }
            }
            responses.addAll(simulation.responseTimes());
            glitches += simulation.measuredGlitches();
            completed += simulation.measuredDiscreteCompleted();
            busyNs += simulation.measuredBusyNs();
            continuousBusyNs += simulation.measuredContinuousBusyNs();
        }
        double seconds = measured * workload.roundNs() / 1e9;
        double diskSeconds = seconds * workload.disks();
        boolean saturated = overflowed || growing(backlogByRound, workload.lambda() * workload.roundNs() / 1e9);
        return new SimulationResult(policy.name(), workload.omniscientRotation() ? "omniscient" : "worst-case",
            workload.continuousPerDisk(), workload.lambda(), responses.count(), responses.meanNs() / 1e6,
            responses.percentileNs(0.95) / 1e6, responses.percentileNs(0.99) / 1e6, responses.maxNs() / 1e6,
            completed / seconds, glitches, busyNs / 1e9 / diskSeconds, continuousBusyNs / 1e9 / diskSeconds,
            saturated, seconds);
    }

    /**
     * True if the backlog grows by more than {@link #GROWTH_SHARE} of the arrivals per round: the
     * least-squares slope of the backlog over the measured rounds. A stable queue's slope hovers
     * around zero, whatever its level; an overloaded one climbs by the share it cannot serve.
     */
    static boolean growing(long[] backlogByRound, double arrivalsPerRound) {
        int n = backlogByRound.length;
        if (n < 8) {
            return false;
        }
        double meanX = (n - 1) / 2.0;
        double meanY = mean(backlogByRound, 0, n);
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < n; i++) {
            covariance += (i - meanX) * (backlogByRound[i] - meanY);
            variance += (i - meanX) * (i - meanX);
        }
        double slopePerRound = covariance / variance;
        return slopePerRound > GROWTH_SHARE * Math.max(arrivalsPerRound, 1);
    }

    private static double mean(long[] values, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return sum / (to - from);
    }
}

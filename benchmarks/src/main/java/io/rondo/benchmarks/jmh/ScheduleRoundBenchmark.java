package io.rondo.benchmarks.jmh;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.scheduler.sim.DiskSimulation;
import io.rondo.scheduler.sim.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The CPU time to schedule one round of one disk at the loads of papers/001 Table 4, which took
 * 0.8 to 13.5 ms per round on a 167 MHz UltraSPARC. Each operation is one round of
 * mixed-incremental-scan on the paper's disk in virtual time: every {@code next},
 * {@code ioCompleted}, {@code offer} and the round start, plus the simulator's drawing of sizes,
 * positions, arrivals and rotational delays, so the figure is an upper bound on the scheduling
 * alone. {@code load} is {@code N:lambda}, lambda being the arrival rate over the paper's five disks.
 *
 * <p>Each iteration starts from a fresh disk warmed up for 20 rounds, so at the loads next to
 * saturation the queue has no time to grow past what it would hold in a steady run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ScheduleRoundBenchmark {

    /** The loads of Table 4 as {@code N:lambda}. */
    @Param({"7:30", "7:60", "7:90", "7:100", "7:110", "3:90", "3:150", "3:250", "3:260", "3:270"})
    public String load;

    private DiskProfile disk;
    private Workload workload;
    private DiskSimulation simulation;
    private int seed;

    @Setup(Level.Trial)
    public void loadDisk() {
        String[] parts = load.split(":");
        disk = DiskProfile.paperDisk();
        workload = Workload.paper(Integer.parseInt(parts[0]), Double.parseDouble(parts[1]));
    }

    @Setup(Level.Iteration)
    public void freshDisk() {
        simulation = new DiskSimulation(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, disk,
            workload.withSeed(++seed), 0);
        for (int round = 0; round < 20; round++) {
            simulation.runRound();
        }
    }

    @Benchmark
    public int scheduleOneRound() {
        simulation.runRound();
        return simulation.backlog();
    }
}

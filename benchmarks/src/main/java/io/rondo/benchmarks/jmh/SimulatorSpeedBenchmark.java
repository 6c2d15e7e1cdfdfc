package io.rondo.benchmarks.jmh;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.scheduler.sim.SimulationResult;
import io.rondo.scheduler.sim.Simulator;
import io.rondo.scheduler.sim.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * How fast the simulator runs: one hour of simulated time (3600 one-second rounds) at N = 3,
 * lambda = 270 per second over five disks, the heaviest load of papers/001 Table 4, on
 * {@code disks} disks. Target: under 2 s of wall time for one disk-hour.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class SimulatorSpeedBenchmark {

    /** One disk, or the paper's five (each carries lambda / 5 of the arrivals). */
    @Param({"1", "5"})
    public int disks;

    private DiskProfile disk;
    private Workload workload;

    @Setup
    public void setUp() {
        disk = DiskProfile.paperDisk();
        workload = Workload.paper(3, 270 * disks / 5.0).withDisks(disks).withRounds(3600, 0);
    }

    @Benchmark
    public SimulationResult simulateOneHour() {
        return Simulator.run(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, disk, workload);
    }
}

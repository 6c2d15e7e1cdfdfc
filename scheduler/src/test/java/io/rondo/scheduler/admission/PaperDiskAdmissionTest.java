package io.rondo.scheduler.admission;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.policy.SchedulingPolicy;
import io.rondo.scheduler.sim.SimulationResult;
import io.rondo.scheduler.sim.Simulator;
import io.rondo.scheduler.sim.Workload;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission on the disk of papers/001 Table 1 with rounds of T = 1 s and the C-request size of
 * Table 2, 800,000 B (Gamma, sd 200,000 B). ThroughputModelTest works the curves out: one
 * 800,000 B IO takes 103.67 ms on the mean curve and 117.33 ms on the min curve; a peak fragment
 * of 1,200,000 B (mean + 2 sd) transfers in 136.52 ms, so 149.18 ms mean and 162.83 ms min.
 *
 * <pre>
 *                          reserve 0.2 (800 ms)            reserve 0 (1000 ms)
 *   CBR 800 KB   ADM1  800 / 117.33 = 6.82 -> 6     1000 / 117.33 = 8.52 -> 8
 *                ADM2  800 / 103.67 = 7.72 -> 7     1000 / 103.67 = 9.65 -> 9
 *                ADM3  as ADM2 (average = peak): 7                          9
 *   VBR 800/1200 ADM1  800 / 162.83 = 4.91 -> 4     1000 / 162.83 = 6.14 -> 6
 *                ADM3  800 / 103.67 = 7.72 -> 7     1000 / 103.67 = 9.65 -> 9
 * </pre>
 *
 * ADM2 charges a whole round ({@link ThroughputModel#roundNs}): n fragments in one SCAN sweep,
 * their rotations and transfers at the mean plus 4.5 deviations, never past their worst. CBR
 * 800 KB: 7 fragments take 736.5 ms, 8 take 837.5, 9 take 938.3, 10 more than 1 s: 7 and 9
 * streams, as the per-stream mean curve gives. VBR 800 KB with a deviation of 200 KB (Table 2's
 * Gamma) and a peak of 1200 KB: 5 take 739.6 ms, 6 take 860.9, 7 take 980.3, 8 take 1098: 5
 * and 7 streams, one more than XTREAM's Adm2 without a reserve. The simulator finds the first
 * glitch at 8.
 */
class PaperDiskAdmissionTest {

    private static final DiskProfile DISK = DiskProfile.paperDisk();
    private static final DiskDemand CBR = DiskDemand.constant(800_000);
    private static final DiskDemand VBR = new DiskDemand(800_000, 1_200_000, 200_000);
    private static final AdmissionConfig CONFIG = AdmissionConfig.defaults();

    @Test
    void capacitiesWithTheDefaultReserve() {
        assertCapacities(CONFIG, CBR, 6, 7, 7);
        assertCapacities(CONFIG, VBR, 4, 5, 7);
    }

    @Test
    void capacitiesWithoutAReserve() {
        assertCapacities(CONFIG.withDiscreteReserve(0), CBR, 8, 9, 9);
        assertCapacities(CONFIG.withDiscreteReserve(0), VBR, 6, 7, 9);
        // Its spread unknown, the VBR stream is charged up to its peak: 6 without a reserve, as XTREAM's Adm2.
        assertCapacities(CONFIG.withDiscreteReserve(0), new DiskDemand(800_000, 1_200_000), 6, 6, 9);
    }

    /** Admitting one by one stops exactly at the capacity, and ADM1 &lt; ADM2 &lt; ADM3 for VBR streams. */
    @Test
    void admittingOneByOneStopsAtTheCapacity() {
        int[] admitted = new int[AdmissionPolicy.values().length];
        for (AdmissionPolicy policy : AdmissionPolicy.values()) {
            AdmissionController controller = controller(CONFIG.withPolicy(policy));
            while (controller.admit(StreamDemand.onDisk(admitted[policy.ordinal()], "disk", VBR)).accepted()) {
                admitted[policy.ordinal()]++;
            }
            assertEquals(controller.capacity(policy, StreamDemand.onDisk(0L, "disk", VBR)),
                admitted[policy.ordinal()], policy.label());
        }
        assertTrue(admitted[0] < admitted[1] && admitted[1] <= admitted[2], Arrays.toString(admitted));
    }

    /**
     * The simulator (papers/001 Section 5, the same scheduler as the server, mixed incremental
     * SCAN, worst-case rotation estimates) with N streams of Gamma(800000, 200000) fragments per
     * disk and no D-requests (lambda = 0), 5 disks by 600 rounds. At ADM2's capacity, 5 with the
     * default reserve (7 with none), no fragment misses its round; none at N = 7 either (ADM3's
     * capacity with the default reserve); glitches first appear at N = 8 (9 of 24,000 fragments in
     * the 3000 disk-rounds measured, seed 1), where a round's mean load is 8 * 103.67 = 829 ms
     * less what SCAN saves on seeks, and the Gamma tail of eight fragments now and then passes
     * 1 s. So ADM2 leaves 3 streams of margin with the reserve (the reserve's 200 ms), and 1
     * without, where the round is all it has; ADM3 without a reserve (9) would glitch.
     */
    @Test
    void theSimulatorShowsNoGlitchesAtAdm2sCapacity() {
        int capacity = controller(CONFIG).capacity(AdmissionPolicy.ADM2, StreamDemand.onDisk(0L, "disk", VBR));
        int capacityWithoutReserve = controller(CONFIG.withDiscreteReserve(0))
            .capacity(AdmissionPolicy.ADM2, StreamDemand.onDisk(0L, "disk", VBR));
        assertEquals(5, capacity);
        assertEquals(7, capacityWithoutReserve);

        assertEquals(0, simulate(capacity).glitches());
        assertEquals(0, simulate(capacityWithoutReserve).glitches());
        int firstGlitchN = capacity;
        StringBuilder seen = new StringBuilder();
        while (firstGlitchN < 20) {
            SimulationResult result = simulate(firstGlitchN);
            seen.append(" N=").append(firstGlitchN).append(':').append(result.glitches());
            if (result.glitches() > 0) {
                break;
            }
            firstGlitchN++;
        }
        assertEquals(8, firstGlitchN, seen.toString());
    }

    private static SimulationResult simulate(int n) {
        return Simulator.run(SchedulingPolicy.MIXED_INCREMENTAL_SCAN, DISK, Workload.paper(n, 0));
    }

    private static void assertCapacities(AdmissionConfig config, DiskDemand demand, int adm1, int adm2, int adm3) {
        AdmissionController controller = controller(config);
        StreamDemand stream = StreamDemand.onDisk(0L, "disk", demand);
        assertEquals(adm1, controller.capacity(AdmissionPolicy.ADM1, stream), "adm1");
        assertEquals(adm2, controller.capacity(AdmissionPolicy.ADM2, stream), "adm2");
        assertEquals(adm3, controller.capacity(AdmissionPolicy.ADM3, stream), "adm3");
    }

    private static AdmissionController controller(AdmissionConfig config) {
        return new AdmissionController(Map.of("disk", DISK), config, new CachedNanoClock());
    }
}

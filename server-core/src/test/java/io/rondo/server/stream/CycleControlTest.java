package io.rondo.server.stream;

import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.scheduler.admission.DiskDemand;
import io.rondo.scheduler.admission.StreamCadence;
import io.rondo.scheduler.admission.StreamDemand;
import io.rondo.scheduler.cycle.Step;
import io.rondo.scheduler.disk.DiskProfile;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stream combination in the server, stepped round by round against a real admission controller
 * on the disk of papers/001 Table 1 with 1 s rounds: low-rate streams fill the disk's rounds with
 * seeks, so the cycle combines them, then doubles, and admits more; high-rate streams fill the
 * buffers, so it splits and halves.
 */
class CycleControlTest {

    private static final long ROUND_NS = 1_000_000_000L;
    /** 64 KB a round: 512 kbit/s. */
    private static final DiskDemand LOW_RATE = DiskDemand.constant(64_000);

    private final Map<Long, Cadence> given = new HashMap<>();
    private final Map<Long, Long> rates = new LinkedHashMap<>();
    private final CycleControl.Streams streams = new CycleControl.Streams() {
        @Override
        public Map<Long, Long> combinable() {
            return new LinkedHashMap<>(rates);
        }

        @Override
        public boolean recadence(long id, Cadence cadence) {
            given.put(id, cadence);
            return true;
        }
    };

    @Test
    void lowRateStreamsAreCombinedThenTheCycleDoublesAndMoreAreAdmitted() {
        AdmissionController fixed = controller(256L << 20);
        int fixedCycle = fill(fixed, null, 600);

        AdmissionController admission = controller(256L << 20);
        CycleControl cycles = new CycleControl(admission, streams, CycleControl.defaults(ROUND_NS), ROUND_NS);
        int admitted = fill(admission, cycles, 600);

        Map<Step.Operation, Long> operations = cycles.operations();
        assertTrue(operations.get(Step.Operation.COMBINE) > 0, operations.toString());
        assertTrue(operations.get(Step.Operation.DOUBLE) > 0, operations.toString());
        assertTrue(cycles.cycleNs() >= 2 * ROUND_NS, "the cycle grew to " + cycles.cycleNs());
        assertTrue(admitted >= fixedCycle * 1.6, fixedCycle + " streams with 1 s rounds, " + admitted
            + " combining");
        for (StreamCadence stream : admission.cadences()) {
            assertEquals(stream.cadence(), given.getOrDefault(stream.streamId(), stream.cadence()),
                "stream " + stream.streamId() + " reads as admission charges it");
        }
        assertTrue(admission.utilization(Map.of()).cycle() <= 1);
    }

    @Test
    void whenTheBuffersRunShortPairsAreSplitAndTheCycleHalves() {
        AdmissionController admission = controller(256L << 20);
        CycleControl cycles = new CycleControl(admission, streams, CycleControl.defaults(ROUND_NS), ROUND_NS);
        int admitted = fill(admission, cycles, 200);
        long grown = cycles.cycleNs();
        assertTrue(grown >= 2 * ROUND_NS);
        for (long id = admitted / 2; id < admitted; id++) {
            admission.release(id);
            rates.remove(id);
        }
        admission.reconfigure(admission.config().withBufferCeilingBytes(
            (long) (admission.bufferBytesInUse() * 1.02)));
        double before = admission.utilization(Map.of()).memory();
        for (long round = 1000; round < 1200; round++) {
            cycles.roundStarted(round);
        }
        assertTrue(cycles.operations().get(Step.Operation.SPLIT) > 0, cycles.operations().toString());
        assertTrue(admission.utilization(Map.of()).memory() < before - 0.1,
            "memory was given back: " + before + " then " + admission.utilization(Map.of()));

        admission.reconfigure(admission.config().withBufferCeilingBytes(
            (long) (admission.bufferBytesInUse() * 1.02)));
        for (long round = 1200; round < 1400; round++) {
            cycles.roundStarted(round);
        }
        assertTrue(cycles.operations().get(Step.Operation.SHORTEN) > 0, cycles.operations().toString());
        assertTrue(admission.utilization(Map.of()).memory() <= 1 && admission.utilization(Map.of()).cycle() <= 1);
        int rounds = (int) (cycles.cycleNs() / ROUND_NS);
        assertTrue(admission.cadences().stream().allMatch(c -> c.cadence().period() == rounds
            || c.cadence().period() == 2 * rounds), "a stream reads once a cycle, or every other cycle in a pair");
        assertEquals(cycles.combined(), admission.cadences().stream()
            .filter(c -> c.cadence().period() == 2 * rounds).count());
    }

    @Test
    void anOperatorsCycleIsTakenWhenItFitsAndRefusedWhenItDoesNot() {
        AdmissionController admission = controller(2L << 20);
        CycleControl cycles = new CycleControl(admission, streams,
            CycleControl.defaults(ROUND_NS).withEnabled(false), ROUND_NS);
        for (long id = 0; id < 6; id++) {
            assertTrue(admission.admit(StreamDemand.onDisk(id, "disk", LOW_RATE)).accepted());
            rates.put(id, 64_000L);
        }
        cycles.requestCycle(2 * ROUND_NS);
        assertEquals(2 * ROUND_NS, cycles.cycleNs());
        assertEquals(2, admission.basePeriod(), "new streams read every other round");
        assertEquals(6, given.size());
        assertTrue(given.values().stream().allMatch(c -> c.period() == 2));

        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
            () -> cycles.requestCycle(8 * ROUND_NS));
        assertTrue(tooLong.getMessage().contains("does not fit"), tooLong.getMessage());
        assertEquals(2 * ROUND_NS, cycles.cycleNs());
        IllegalArgumentException notPowerOfTwo = assertThrows(IllegalArgumentException.class,
            () -> cycles.requestCycle(3 * ROUND_NS));
        assertTrue(notPowerOfTwo.getMessage().contains("power of two"), notPowerOfTwo.getMessage());
    }

    /**
     * Streams arrive one a round until admission refuses one, {@code rounds} at most, the cycle
     * checked at each round's start; the number admitted.
     */
    private int fill(AdmissionController admission, CycleControl cycles, int rounds) {
        int admitted = 0;
        for (long round = 0; round <= rounds; round++) {
            if (cycles != null) {
                cycles.roundStarted(round);
            }
            if (admission.admit(StreamDemand.onDisk(admitted, "disk", LOW_RATE)).accepted()) {
                rates.put((long) admitted, 64_000L);
                admitted++;
            } else if (cycles == null) {
                break;
            }
        }
        return admitted;
    }

    private static AdmissionController controller(long ceiling) {
        return new AdmissionController(Map.of("disk", DiskProfile.paperDisk()),
            AdmissionConfig.defaults().withBufferCeilingBytes(ceiling), new CachedNanoClock());
    }
}

package io.rondo.scheduler.admission;

import io.rondo.scheduler.disk.DiskProfile;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streams that read several fragments in one IO every few rounds (papers/003): on the disk of
 * papers/001 Table 1, a low-rate stream's round is mostly seek and rotation, so reading two
 * rounds' data every other round fits far more of them into the same disk; the buffers pay.
 */
class CadenceAdmissionTest {

    /**
     * 64 KB a round: 512 kbit/s, the middle of papers/003's 128-1024 kbit/s. 48 such streams fit
     * reading every round, 64 every other round.
     */
    private static final DiskDemand LOW_RATE = DiskDemand.constant(64_000);

    @Test
    void readingEveryOtherRoundAdmitsMoreLowRateStreams() {
        int everyRound = fill(controller(256L << 20), 1);
        int everyOtherRound = fill(controller(256L << 20), 2);
        int everyFourth = fill(controller(256L << 20), 4);
        assertTrue(everyOtherRound > everyRound * 1.3, everyRound + " then " + everyOtherRound);
        assertTrue(everyFourth > everyOtherRound, everyOtherRound + " then " + everyFourth);
    }

    @Test
    void newStreamsTakeTheLeastLoadedSlot() {
        AdmissionController controller = controller(256L << 20);
        controller.basePeriod(2);
        int[] bySlot = new int[2];
        for (long id = 0; id < 6; id++) {
            AdmissionDecision decision = controller.admit(StreamDemand.onDisk(id, "disk", LOW_RATE));
            bySlot[((AdmissionDecision.Accept) decision).cadence().slot()]++;
        }
        assertEquals(3, bySlot[0]);
        assertEquals(3, bySlot[1]);
    }

    @Test
    void combiningTwoStreamsFreesRoundTimeForAnother() {
        AdmissionController controller = controller(256L << 20);
        int admitted = fill(controller, 1);
        assertFalse(controller.admit(StreamDemand.onDisk(1000, "disk", LOW_RATE)).accepted());
        Utilization before = controller.utilization(Map.of());

        Map<Long, Cadence> pairs = new HashMap<>();
        for (long id = 0; id + 1 < admitted; id += 2) {
            pairs.put(id, new Cadence(2, 0));
            pairs.put(id + 1, new Cadence(2, 1));
        }
        Utilization combined = controller.utilization(pairs);
        assertTrue(combined.cycle() < before.cycle() * 0.8, before + " then " + combined);
        assertTrue(combined.memory() > before.memory(), before + " then " + combined);
        assertTrue(controller.recadence(pairs));

        assertTrue(controller.admit(StreamDemand.onDisk(1000, "disk", LOW_RATE)).accepted());
        assertEquals(new Cadence(2, 1), cadenceOf(controller, 1));
    }

    @Test
    void aCadenceTheBuffersCannotHoldIsRefused() {
        // Two 64 KB buffers per stream: 128 KB each; 8 streams fill 1 MiB, and reading every
        // other round would double it.
        AdmissionController controller = controller(1L << 20);
        for (long id = 0; id < 8; id++) {
            assertTrue(controller.admit(StreamDemand.onDisk(id, "disk", LOW_RATE)).accepted());
        }
        assertFalse(controller.recadence(Map.of(0L, new Cadence(2, 0), 1L, new Cadence(2, 1))));
        assertEquals(Cadence.EVERY_ROUND, cadenceOf(controller, 0));
    }

    @Test
    void aRecordingWritesEveryRoundWhateverTheCycle() {
        AdmissionController controller = controller(256L << 20);
        controller.basePeriod(4);
        AdmissionDecision decision = controller.admit(StreamDemand.recording(1, 4_000_000,
            java.time.Duration.ofSeconds(1), "disk"));
        assertEquals(Cadence.EVERY_ROUND, ((AdmissionDecision.Accept) decision).cadence());
    }

    private static int fill(AdmissionController controller, int period) {
        controller.basePeriod(period);
        int admitted = 0;
        while (controller.admit(StreamDemand.onDisk(admitted, "disk", LOW_RATE)).accepted()) {
            admitted++;
        }
        return admitted;
    }

    private static Cadence cadenceOf(AdmissionController controller, long id) {
        return controller.cadences().stream().filter(s -> s.streamId() == id).findFirst().orElseThrow().cadence();
    }

    private static AdmissionController controller(long ceiling) {
        return new AdmissionController(Map.of("disk", DiskProfile.paperDisk()),
            AdmissionConfig.defaults().withBufferCeilingBytes(ceiling), new CachedNanoClock());
    }
}

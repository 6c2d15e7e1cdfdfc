package io.rondo.scheduler.admission;

import io.rondo.scheduler.disk.DiskProfile;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recordings admitted beside read streams (papers/000 Section 2.1): a recording is charged its
 * declared peak on the disk's write curve, a reader on the read curve, both in the same round's
 * budget; a profile with no write curve charges writes as reads.
 */
class WriteAdmissionTest {

    private static final long MS = 1_000_000L;
    private static final long FRAGMENT = 65_536;
    /** A bit rate whose fragment in a round of a second is {@link #FRAGMENT} bytes. */
    private static final double BITS_PER_SECOND = FRAGMENT * 8.0;

    /**
     * {@link ThroughputModelTest#MEASURED} with the writes timed too: slower than its reads,
     * 64 KiB at 4 MB/s on average (16.4 ms, against 6.6 ms for a read), a fitted line of
     * a = 15 ms, a_max = 20 ms, R = 40 MB/s beyond the measured sizes.
     */
    static final String WITH_WRITES = ThroughputModelTest.MEASURED.replace("\"measured\": {", """
        "measured": {
            "write": {
              "accessMs": 15.0,
              "accessMaxMs": 20.0,
              "transferBytesPerSecond": 40000000,
              "rows": [
                { "ioBytes": 4096, "reads": 16, "minMBps": 0.2, "meanMBps": 0.25, "maxMBps": 0.5 },
                { "ioBytes": 65536, "reads": 16, "minMBps": 2.0, "meanMBps": 4.0, "maxMBps": 8.0 },
                { "ioBytes": 1048576, "reads": 16, "minMBps": 20.0, "meanMBps": 25.0, "maxMBps": 30.0 }
              ]
            },""");

    private final DiskProfile profile = DiskProfile.fromJson(WITH_WRITES, "a test");
    private final DiskProfile readsOnly = DiskProfile.fromJson(ThroughputModelTest.MEASURED, "a test");

    private static StreamDemand reader(long id) {
        return StreamDemand.ofBitRates(id, BITS_PER_SECOND, BITS_PER_SECOND, Duration.ofSeconds(1),
            List.of("d0"), null);
    }

    private static StreamDemand recording(long id) {
        return StreamDemand.recording(id, BITS_PER_SECOND, Duration.ofSeconds(1), "d0");
    }

    private AdmissionController controller(DiskProfile disk, AdmissionPolicy policy) {
        return new AdmissionController(Map.of("d0", disk), AdmissionConfig.defaults().withPolicy(policy),
            new CachedNanoClock());
    }

    @Test
    void theWriteCurveIsTheMeasuredWritesAndItsLineBeyondThem() {
        ThroughputModel writes = ThroughputModel.ofWrites(profile);

        assertTrue(writes.measured());
        assertEquals(16_384_000, writes.meanCurveNs(FRAGMENT), 1, "64 KiB at 4 MB/s");
        assertEquals(32_768_000, writes.minCurveNs(FRAGMENT), 1, "64 KiB at 2 MB/s");
        assertEquals(6_553_600, ThroughputModel.of(profile).meanCurveNs(FRAGMENT), 1, "the read of it, 10 MB/s");
        assertEquals(15 * MS + 52_428_800, writes.meanCurveNs(2_097_152), 1, "a + s/R past the largest write");
        assertEquals(20 * MS + 52_428_800, writes.minCurveNs(2_097_152), 1, "a_max + s/R");
    }

    @Test
    void withoutAWriteCurveWritesAreChargedAsReads() {
        for (DiskProfile disk : new DiskProfile[] {readsOnly, DiskProfile.paperDisk()}) {
            ThroughputModel reads = ThroughputModel.of(disk);
            ThroughputModel writes = ThroughputModel.ofWrites(disk);
            for (long bytes : new long[] {4096, FRAGMENT, 2_097_152}) {
                assertEquals(reads.meanCurveNs(bytes), writes.meanCurveNs(bytes), disk + " " + bytes);
                assertEquals(reads.minCurveNs(bytes), writes.minCurveNs(bytes), disk + " " + bytes);
            }
            AdmissionController controller = controller(disk, AdmissionPolicy.ADM1);
            assertEquals(controller.capacity(AdmissionPolicy.ADM1, reader(1)),
                controller.capacity(AdmissionPolicy.ADM1, recording(1)));
        }
    }

    /**
     * ADM1 charges every stream its peak fragment on the min curve: the 800 ms of a round left to
     * C-requests hold 61 reads of 64 KiB (13.1 ms each, at 5 MB/s) but 24 writes (32.8 ms, at 2 MB/s).
     */
    @Test
    void aRecordingIsChargedItsPeakOnTheWriteCurve() {
        AdmissionController controller = controller(profile, AdmissionPolicy.ADM1);
        long continuousNs = controller.config().continuousNs();
        ThroughputModel writes = ThroughputModel.ofWrites(profile);
        ThroughputModel reads = ThroughputModel.of(profile);

        assertEquals(continuousNs / writes.minCurveNs(FRAGMENT), controller.capacity(AdmissionPolicy.ADM1,
            recording(1)));
        assertEquals(continuousNs / reads.minCurveNs(FRAGMENT), controller.capacity(AdmissionPolicy.ADM1, reader(1)));
        assertEquals(24, controller.capacity(AdmissionPolicy.ADM1, recording(1)));
        assertEquals(61, controller.capacity(AdmissionPolicy.ADM1, reader(1)));

        assertTrue(controller.admit(recording(1)).accepted());
        assertEquals(writes.minCurveNs(FRAGMENT), controller.committedNs("d0"));
        assertTrue(controller.admit(reader(2)).accepted());
        assertEquals(writes.minCurveNs(FRAGMENT) + reads.minCurveNs(FRAGMENT), controller.committedNs("d0"),
            "reads and writes in the same round's budget");
    }

    /** Reads and recordings fill one round together: each recording leaves fewer reads room, refused with a reason. */
    @Test
    void recordingsAndReadersShareTheRound() {
        AdmissionController controller = controller(profile, AdmissionPolicy.ADM1);
        long continuousNs = controller.config().continuousNs();
        long writeNs = ThroughputModel.ofWrites(profile).minCurveNs(FRAGMENT);
        long readNs = ThroughputModel.of(profile).minCurveNs(FRAGMENT);
        int recordings = 10;
        for (int i = 0; i < recordings; i++) {
            assertTrue(controller.admit(recording(i)).accepted());
        }
        int readers = 0;
        while (controller.admit(reader(100 + readers)).accepted()) {
            readers++;
        }

        assertEquals((continuousNs - recordings * writeNs) / readNs, readers);
        AdmissionDecision refused = controller.admit(recording(99));
        assertTrue(!refused.accepted() && refused.reason().contains("d0"), refused.reason());
    }

    /** ADM2 charges whole rounds: the writes' penalty over reads of the same fragments is added to the round. */
    @Test
    void underAdm2AWholeRoundOfRecordingsCostsMoreThanOneOfReaders() {
        AdmissionController writing = controller(profile, AdmissionPolicy.ADM2);
        AdmissionController reading = controller(profile, AdmissionPolicy.ADM2);
        for (int i = 0; i < 4; i++) {
            assertTrue(writing.admit(recording(i)).accepted());
            assertTrue(reading.admit(reader(i)).accepted());
        }
        ThroughputModel writes = ThroughputModel.ofWrites(profile);
        ThroughputModel reads = ThroughputModel.of(profile);
        long penaltyNs = 4 * (writes.meanCurveNs(FRAGMENT) - reads.meanCurveNs(FRAGMENT));

        assertEquals(Math.min(4 * writes.meanCurveNs(FRAGMENT), reading.committedNs("d0") + penaltyNs),
            writing.committedNs("d0"));
        assertTrue(writing.committedNs("d0") > reading.committedNs("d0"));
    }
}

package io.rondo.server.cluster.agent;

import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.admission.DiskDemand;
import io.rondo.scheduler.admission.StreamDemand;
import io.rondo.scheduler.disk.DiskProfile;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a node's agent tells HAProxy from its admission state: an empty node at full weight, a
 * half-committed one at about half, a full one drained, one an operator drained, and one whose
 * disk fails down.
 */
class AgentReportTest {

    /** A stream of half a megabyte a round, on the paper's disk: the disk's round is what runs short. */
    private static final DiskDemand STREAM = DiskDemand.constant(500_000);

    private final CachedNanoClock clock = new CachedNanoClock();
    private final AdmissionController admission = new AdmissionController(Map.of("sda", DiskProfile.paperDisk()),
        AdmissionConfig.defaults(), clock);
    private final FakeDisk sda = new FakeDisk();
    private final AtomicReference<String> drained = new AtomicReference<>();
    private final AgentReport report = new AgentReport(admission, new DiskHealth(Map.of("sda", sda)), drained::get);
    private long nextId = 1;

    @Test
    void anEmptyNodeIsUpReadyAtFullWeightAndSaysNoMaxconn() {
        assertEquals("up ready 100%", report.line().format());
    }

    @Test
    void aNodeWithHalfItsRoundCommittedWeighsAboutHalfAndCountsItsRoomInStreams() {
        int capacity = capacity();
        for (int i = 0; i < capacity / 2; i++) {
            assertTrue(admit());
        }

        AgentLine line = report.line();

        assertEquals(AgentLine.Health.UP, line.health());
        assertEquals(AgentLine.Admin.READY, line.admin());
        assertTrue(line.weightPercent() >= 40 && line.weightPercent() <= 60, line.format());
        assertTrue(Math.abs(line.maxconn() - capacity) <= 2,
            "maxconn is the streams admitted and as many more as fit: " + line.format() + " of " + capacity);
    }

    @Test
    void aFullNodeDrainsAtWeightZeroAndSaysWhy() {
        int admitted = 0;
        while (admit()) {
            admitted++;
        }

        AgentLine line = report.line();

        assertEquals(AgentLine.Admin.DRAIN, line.admin(), line.format());
        assertEquals(0, line.weightPercent());
        assertEquals(admitted, line.maxconn());
        assertTrue(line.reason().startsWith("full: no room for another stream (disk sda's round "), line.reason());
        assertFalse(line.admits());
    }

    @Test
    void aNodeWhoseNetworkIsTakenDrainsThoughItsDiskHasRoom() {
        AdmissionController linked = new AdmissionController(Map.of("sda", DiskProfile.paperDisk()),
            AdmissionConfig.defaults().withNetworkBitsPerSecond(13_000_000), clock);
        AgentReport node = new AgentReport(linked, new DiskHealth(Map.of("sda", sda)), drained::get);
        int admitted = 0;
        while (linked.admit(StreamDemand.onDisk(admitted + 1, "sda", STREAM)).accepted()) {
            admitted++;
        }

        AgentLine line = node.line();

        assertEquals(3, admitted, "three streams of 4 Mbit/s fit 13 Mbit/s");
        assertEquals(AgentLine.Admin.DRAIN, line.admin(), line.format());
        assertEquals(0, line.weightPercent());
        assertEquals(3, line.maxconn());
        assertTrue(line.reason().contains("the network"), line.reason());
    }

    @Test
    void aNodeAnOperatorDrainedSaysDrainAndKeepsItsWeightForWhenItIsReadyAgain() {
        admit();
        drained.set("an operator drained the server");

        AgentLine line = report.line();

        assertEquals(AgentLine.Health.UP, line.health());
        assertEquals(AgentLine.Admin.DRAIN, line.admin());
        assertTrue(line.weightPercent() > 90, line.format());
        assertEquals("an operator drained the server", line.reason());

        drained.set(null);
        assertEquals(AgentLine.Admin.READY, report.line().admin(), "ready undoes the agent's own drain");
    }

    @Test
    void aNodeWhoseDiskFailsIsDownUntilAnIoOfItIsDoneAgain() {
        sda.done.set(10);
        assertEquals(AgentLine.Health.UP, report.line().health());
        sda.failed.set(3);

        AgentLine down = report.line();

        assertEquals("down ready 100% #disk sda fails: 3 IO(s) failed and none was done since", down.format());
        assertEquals(AgentLine.Health.DOWN, report.line().health(), "an idle failed disk stays failed");
        sda.done.set(11);
        assertEquals("up ready 100%", report.line().format());
    }

    @Test
    void iosThatFailBesideOthersDoneAreNoFailedDisk() {
        sda.failed.set(2);
        sda.done.set(40);

        assertEquals(AgentLine.Health.UP, report.line().health());
    }

    /** How many streams the disk takes, on a controller of its own. */
    private static int capacity() {
        AdmissionController alone = new AdmissionController(Map.of("sda", DiskProfile.paperDisk()),
            AdmissionConfig.defaults(), new CachedNanoClock());
        int streams = 0;
        while (alone.admit(StreamDemand.onDisk(streams + 1, "sda", STREAM)).accepted()) {
            streams++;
        }
        assertTrue(streams >= 8, "the paper's disk takes a few such streams: " + streams);
        return streams;
    }

    private boolean admit() {
        return admission.admit(StreamDemand.onDisk(nextId++, "sda", STREAM)).accepted();
    }

    /** A disk's counts as a test sets them. */
    private static final class FakeDisk implements DiskHealth.Counts {
        final AtomicLong failed = new AtomicLong();
        final AtomicLong done = new AtomicLong();

        @Override
        public long failed() {
            return failed.get();
        }

        @Override
        public long done() {
            return done.get();
        }
    }
}

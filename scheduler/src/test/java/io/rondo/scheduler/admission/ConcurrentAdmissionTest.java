package io.rondo.scheduler.admission;

import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Admissions from many threads at once never overbook a disk, even while the settings change. */
class ConcurrentAdmissionTest {

    private static final int THREADS = 8;
    private static final DiskDemand VBR = new DiskDemand(100_000, 150_000, 20_000);
    /** {@link SmallDisk}, 100 ms rounds with a 20% reserve and ADM2: 4 streams per disk (AdmissionControllerTest). */
    private static final AdmissionConfig CONFIG = AdmissionConfig.defaults().withRound(Duration.ofMillis(100));

    @Test
    void racingAdmissionsAdmitExactlyTheCapacity() throws Exception {
        for (int trial = 0; trial < 50; trial++) {
            AdmissionController controller = new AdmissionController(Map.of("d0", new SmallDisk(),
                "d1", new SmallDisk()), CONFIG, new CachedNanoClock());
            AtomicInteger accepted = new AtomicInteger();
            runTogether(thread -> {
                for (int i = 0; i < 10; i++) {
                    // Half the streams are striped over both disks, half sit on one of them.
                    Map<String, DiskDemand> disks = i % 2 == 0 ? Map.of("d0", VBR, "d1", VBR)
                        : Map.of(thread % 2 == 0 ? "d0" : "d1", VBR);
                    if (controller.admit(new StreamDemand(streamId(thread, i), disks, null))
                        .accepted()) {
                        accepted.incrementAndGet();
                    }
                }
            });
            assertEquals(accepted.get(), controller.admittedStreams());
            assertTrue(controller.committedNs("d0") <= CONFIG.continuousNs());
            assertTrue(controller.committedNs("d1") <= CONFIG.continuousNs());
            // Each disk sees 20 attempts of streams on it alone, refused only while it is full, and
            // nothing leaves: both end exactly full, never over.
            assertEquals(4, controller.admittedStreams("d0"));
            assertEquals(4, controller.admittedStreams("d1"));
        }
    }

    /** Streams come and go on every thread; no snapshot ever shows more than the capacity. */
    @Test
    void admitAndReleaseChurnNeverOverbooks() throws Exception {
        AdmissionController controller = new AdmissionController(Map.of("d0", new SmallDisk()), CONFIG,
            new CachedNanoClock());
        AtomicInteger accepted = new AtomicInteger();
        runTogether(thread -> {
            for (int i = 0; i < 2_000; i++) {
                long id = streamId(thread, i);
                if (controller.admit(StreamDemand.onDisk(id, "d0", VBR)).accepted()) {
                    accepted.incrementAndGet();
                    int admitted = controller.admittedStreams("d0");
                    if (admitted > 4) {
                        throw new AssertionError(admitted + " streams admitted on a disk that takes 4");
                    }
                    assertTrue(controller.release(id));
                }
            }
        });
        assertTrue(accepted.get() >= 4, "streams were admitted: " + accepted.get());
        assertEquals(0, controller.admittedStreams());
        assertEquals(0, controller.committedNs("d0"));
        assertEquals(0, controller.bufferBytesInUse());
    }

    /**
     * One thread switches the reserve back and forth between 20% (80 ms for streams: 4 of them)
     * and 50% (50 ms: 2), then leaves it at 50%, while the others admit and release. A snapshot
     * never shows more than four streams, and none shows more than two after an admission begun
     * once the 50% reserve was there to stay.
     */
    @Test
    void aChangeOfSettingsRacingAdmissionsNeverOverbooks() throws Exception {
        AdmissionController controller = new AdmissionController(Map.of("d0", new SmallDisk()), CONFIG,
            new CachedNanoClock());
        AdmissionConfig halfReserved = CONFIG.withDiscreteReserve(0.5);
        AtomicBoolean settled = new AtomicBoolean();
        AtomicInteger accepted = new AtomicInteger();
        runTogether(thread -> {
            if (thread == 0) {
                for (int i = 0; i < 1_000; i++) {
                    controller.reconfigure(i % 2 == 0 ? halfReserved : CONFIG);
                }
                controller.reconfigure(halfReserved);
                settled.set(true);
                return;
            }
            for (int i = 0; i < 2_000; i++) {
                long id = streamId(thread, i);
                boolean tight = settled.get();
                if (controller.admit(StreamDemand.onDisk(id, "d0", VBR)).accepted()) {
                    accepted.incrementAndGet();
                    int admitted = controller.admittedStreams("d0");
                    if (admitted > (tight ? 2 : 4)) {
                        throw new AssertionError(admitted + " streams admitted on a disk that takes "
                            + (tight ? 2 : 4));
                    }
                    assertTrue(controller.release(id));
                }
            }
        });
        assertTrue(accepted.get() >= 4, "streams were admitted: " + accepted.get());
        assertEquals(halfReserved, controller.config());
        assertEquals(0, controller.admittedStreams());
        assertEquals(0, controller.committedNs("d0"));
    }

    /** The id of {@code thread}'s {@code i}-th stream: unique across threads. */
    private static long streamId(int thread, int i) {
        return thread * 1_000_000L + i;
    }

    private interface Body {
        void run(int thread) throws Exception;
    }

    private static void runTogether(Body body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    body.run(thread);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}

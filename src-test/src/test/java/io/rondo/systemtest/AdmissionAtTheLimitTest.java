package io.rondo.systemtest;

import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.RejectReason;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.exec.BlockDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The promise at the limit: a disk that takes 20 ms longer for every read than its model says
 * (as a disk does whose thread waits for a core, on a machine whose cores and not its disks are
 * the limit). The model alone would admit some 50 streams of the demo clip, whose rounds would then
 * take half again the round and glitch: 302 fragments late in a run before admission measured. It
 * measures the rounds, admits only what fits as measured (and no faster than rounds show it fits),
 * refuses the rest, and no admitted stream misses a fragment or a deadline.
 */
class AdmissionAtTheLimitTest {

    /** How much longer than its model every read of the disk takes. */
    private static final long EXTRA_NS = TimeUnit.MILLISECONDS.toNanos(20);

    /** Streams that play first, so that their rounds are measured. */
    private static final int FIRST = 20;

    /** Streams that ask to join them: more than the model's limit. */
    private static final int MORE = 60;

    @TempDir
    Path temp;

    @Test
    void streamsPastWhatTheRoundsReallyTakeAreRefusedAndNoAdmittedStreamGlitches() throws Exception {
        try (RondoUnderTest rondo = RondoUnderTest.start(temp, 1_000, AdmissionConfig.defaults(), this::slower)) {
            String disk = rondo.disks.diskNames().get(0);
            ExecutorService players = Executors.newCachedThreadPool();
            try {
                List<Future<Outcome>> first = new ArrayList<>();
                for (int i = 0; i < FIRST; i++) {
                    first.add(players.submit(() -> play(rondo)));
                }
                await().atMost(Duration.ofSeconds(15))
                    .until(() -> rondo.streams.admission().inflation(disk) > 1.3);

                List<Future<Outcome>> more = new ArrayList<>();
                for (int i = 0; i < MORE; i++) {
                    more.add(players.submit(() -> play(rondo)));
                }
                List<Outcome> outcomes = new ArrayList<>();
                for (Future<Outcome> played : first) {
                    outcomes.add(played.get(60, TimeUnit.SECONDS));
                }
                List<Outcome> joined = new ArrayList<>();
                for (Future<Outcome> played : more) {
                    joined.add(played.get(60, TimeUnit.SECONDS));
                }
                outcomes.addAll(joined);

                assertEquals(0, rondo.streams.glitches(), "no admitted stream's fragment missed its deadline");
                long refused = joined.stream().filter(o -> o.rejected != null).count();
                assertTrue(refused > 0, "the streams past the measured limit are refused: " + joined);
                assertTrue(joined.stream().filter(o -> o.rejected != null)
                    .allMatch(o -> o.rejected.reason() == RejectReason.DISK_TIME
                        || o.rejected.reason() == RejectReason.NETWORK), "refused for disk time or delivery");
                assertTrue(joined.stream().anyMatch(o -> o.rejected != null && measured(o.rejected.message())),
                    "a refusal says the rounds were measured: " + joined);
                for (Outcome outcome : outcomes) {
                    if (outcome.rejected == null) {
                        assertEquals(rondo.clipFragments(), outcome.fragments, "every fragment of an admitted stream");
                    }
                }
            } finally {
                players.shutdownNow();
            }
        }
    }

    /** Whether a refusal's message says it came of what the rounds measured. */
    private static boolean measured(String message) {
        return message.contains("as measured") || message.contains("measuring on disk");
    }

    /** What one player saw: the REJECT, or how many fragments it played in order to END. */
    private record Outcome(io.rondo.client.protocol.Reject rejected, int fragments) {
    }

    private static Outcome play(RondoUnderTest rondo) throws Exception {
        try (StreamClient client = StreamClient.connect("127.0.0.1", rondo.streamPort())) {
            client.open(RondoUnderTest.CLIP, 0, RondoUnderTest.PROFILE);
            int fragments = 0;
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                assertEquals(fragments, data.fragmentIndex(), "fragments in order, none missing");
                fragments++;
            }
            return new Outcome(null, fragments);
        } catch (StreamRejectedException e) {
            return new Outcome(e.reject(), 0);
        }
    }

    /** The disk, {@link #EXTRA_NS} slower for every read than its model. */
    private BlockDevice slower(BlockDevice device) {
        return (request, task, scratch) -> {
            LockSupport.parkNanos(EXTRA_NS);
            return device.read(request, task, scratch);
        };
    }
}

package io.rondo.server.live;

import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.server.config.LiveSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Retention by age and by quota per folder, on a stepped clock: the oldest go first, never one in use. */
class LiveRetentionTest {

    private static final long HOUR_MS = TimeUnit.HOURS.toMillis(1);

    @TempDir
    Path temp;

    private final SteppedClock clock = new SteppedClock();

    @Test
    void objectsOlderThanTheirFoldersAgeGoExceptOneBeingRecordedOrRead() throws Exception {
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), clock)) {
            long old = put(library, "/cams/old.bin", 1000);
            put(library, "/cams/recording.bin", 1000);
            put(library, "/cams/watched.bin", 1000);
            put(library, "/other/old.txt", 1000);
            clock.advance(3 * HOUR_MS);
            put(library, "/cams/new.bin", 1000);
            long recording = library.store().catalog().byName("/cams/recording.bin").orElseThrow().id();
            Directory.Lease watched = library.directory().open("/cams/watched.bin").orElseThrow();

            LiveRetention retention = retention(library, recording,
                new LiveSettings.Retention("/cams", 2 * HOUR_MS, 0));
            assertEquals(List.of("/cams/old.bin"), retention.sweep());
            assertTrue(library.store().catalog().byId(old).isEmpty());
            assertTrue(library.store().catalog().byName("/other/old.txt").isPresent(), "another folder is kept");

            watched.close();
            assertEquals(List.of("/cams/watched.bin"), retention.sweep(), "once nobody reads it, it goes");
            assertTrue(library.store().catalog().byName("/cams/recording.bin").isPresent());
        }
    }

    @Test
    void aFolderOverItsQuotaLosesItsOldestUntilItFits() throws Exception {
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), clock)) {
            for (int i = 0; i < 5; i++) {
                put(library, "/cams/" + i + ".bin", 1000);
                clock.advance(60_000);
            }
            LiveRetention retention = retention(library, -1, new LiveSettings.Retention("/cams/", 0, 2500));
            assertEquals(List.of("/cams/0.bin", "/cams/1.bin", "/cams/2.bin"), retention.sweep());
            assertEquals(List.of(), retention.sweep(), "2000 bytes fit the quota");
        }
    }

    private LiveRetention retention(Library library, long recording, LiveSettings.Retention rule) {
        return new LiveRetention(library.directory(), library.store().catalog()::withPrefix, id -> id == recording,
            List.of(rule), clock);
    }

    private long put(Library library, String name, int bytes) throws Exception {
        Path file = Files.write(temp.resolve("source.bin"), new byte[bytes]);
        library.ingest().ingest(new IngestRequest(file, name, null, 0), copied -> { });
        return library.store().catalog().byName(name).orElseThrow().id();
    }

    /** A wall clock that moves only when told. */
    private static final class SteppedClock extends Clock {

        private long millis = 1_800_000_000_000L;

        void advance(long byMs) {
            millis += byMs;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }
}

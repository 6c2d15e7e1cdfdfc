package io.rondo.content.media;

import static io.rondo.content.media.IndexChecks.SECOND;
import static io.rondo.content.media.IndexChecks.assertWellFormed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two hours of media index in well under two seconds, because only headers are read: one small read
 * per Cluster or moof, payloads skipped by their size.
 */
class IndexingSpeedTest {

    private static final int TWO_HOURS_S = 2 * 60 * 60;
    private static final long LIMIT_MS = 2000;

    @TempDir
    Path dir;

    @Test
    void indexesTwoHoursOfWebmReadingHeadersOnly() throws IOException {
        Path file = dir.resolve("two-hours.webm");
        Files.write(file, new SyntheticWebm().clusters(TWO_HOURS_S, 0, 1000, 25, 120).write().bytes());

        long started = System.nanoTime();
        MediaIndex index;
        long bytesRead;
        try (MediaFile in = MediaFile.open(file)) {
            index = WebmIndexer.index(in, SECOND).orElseThrow();
            bytesRead = in.bytesRead();
        }
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        long size = Files.size(file);
        assertWellFormed(index, size);
        assertEquals(TWO_HOURS_S, index.fragments().size());
        assertEquals(TWO_HOURS_S * SECOND, index.durationNs());
        assertTrue(tookMs < LIMIT_MS, "indexing 2 h of WebM took " + tookMs + " ms");
        assertTrue(bytesRead < size / 4, "read " + bytesRead + " of " + size + " bytes: more than headers");
    }

    @Test
    void indexesTwoHoursOfLiveWebmWithUnknownSizes() throws IOException {
        Path file = dir.resolve("two-hours-live.webm");
        Files.write(file, new SyntheticWebm().unknownSizes().duration(null).defaultDurationNs(40_000_000)
            .clusters(TWO_HOURS_S, 0, 1000, 25, 120).write().bytes());

        long started = System.nanoTime();
        MediaIndex index = MediaIndexers.index(file, SECOND).orElseThrow();
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        assertWellFormed(index, Files.size(file));
        assertEquals(TWO_HOURS_S, index.fragments().size());
        assertEquals(TWO_HOURS_S * SECOND, index.durationNs());
        assertTrue(tookMs < LIMIT_MS, "indexing 2 h of live WebM took " + tookMs + " ms");
    }

    @Test
    void indexesTwoHoursOfFragmentedMp4ReadingHeadersOnly() throws IOException {
        Path file = dir.resolve("two-hours.mp4");
        Files.write(file, new SyntheticMp4().withAudio().fragments(TWO_HOURS_S, 25, 3600, 120).write().bytes());

        long started = System.nanoTime();
        MediaIndex index;
        long bytesRead;
        try (MediaFile in = MediaFile.open(file)) {
            index = Mp4Indexer.index(in, SECOND).orElseThrow();
            bytesRead = in.bytesRead();
        }
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        long size = Files.size(file);
        assertWellFormed(index, size);
        assertEquals(TWO_HOURS_S, index.fragments().size());
        assertEquals(TWO_HOURS_S * SECOND, index.durationNs());
        assertTrue(tookMs < LIMIT_MS, "indexing 2 h of fragmented MP4 took " + tookMs + " ms");
        assertTrue(bytesRead < size / 4, "read " + bytesRead + " of " + size + " bytes: more than headers");
    }
}

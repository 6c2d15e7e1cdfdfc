package io.rondo.content.media;

import static io.rondo.content.media.IndexChecks.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Five minutes of WebM (800 kb/s of video, Clusters of 10 s) remux in one pass: planning reads a
 * window of headers at each block, writing reads each byte of payload once, a round's span at a time.
 */
class RemuxSpeedTest {

    private static final int CLUSTERS = 30;
    private static final long LIMIT_MS = 3000;

    @TempDir
    Path dir;

    @Test
    void remuxesFiveMinutesReadingThePayloadOnce() throws IOException {
        Path source = dir.resolve("five-minutes.webm");
        Files.write(source, new SyntheticWebm().withAudio().clusters(CLUSTERS, 0, 10_000, 250, 4000).write().bytes());
        long size = Files.size(source);

        long started = System.nanoTime();
        MediaFile in = MediaFile.open(source);
        Preparation prepared = WebmRemuxer.prepare(in, source, SECOND);
        long planned = in.bytesRead();
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class, prepared).media()) {
            StoredFiles.write(media, dir.resolve("stored.webm"));
            long tookMs = (System.nanoTime() - started) / 1_000_000;

            assertEquals(CLUSTERS * 10, media.index().fragments().size());
            assertTrue(tookMs < LIMIT_MS, "remuxing 5 min of WebM took " + tookMs + " ms");
            assertTrue(planned < size / 3, "planning read " + planned + " of " + size + " bytes: more than headers");
            long written = in.bytesRead() - planned;
            assertTrue(written <= size && written > size * 9 / 10, "writing read " + written + " of " + size);
        }
    }
}

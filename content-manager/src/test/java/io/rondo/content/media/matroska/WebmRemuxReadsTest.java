package io.rondo.content.media.matroska;

import static io.rondo.content.media.IndexChecks.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredFiles;
import io.rondo.content.media.StoredMedia;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Five minutes of WebM (800 kbit/s of video, Clusters of 10 s) remux in one pass: planning reads a
 * window of headers at each block, writing reads each byte of payload once, a round's span at a time.
 * The bytes read are counted, not the time taken: how fast this runs is RemuxBenchmark's figure.
 */
class WebmRemuxReadsTest {

    private static final int CLUSTERS = 30;

    @TempDir
    Path dir;

    @Test
    void planningReadsTheHeadersAndWritingReadsThePayloadOnce() throws IOException {
        Path source = dir.resolve("five-minutes.webm");
        Files.write(source, new SyntheticWebm().withAudio().clusters(CLUSTERS, 0, 10_000, 250, 4000).write().bytes());
        long size = Files.size(source);

        MediaFile in = MediaFile.open(source);
        Preparation prepared = WebmRemuxer.prepare(in, source, SECOND);
        long planned = in.bytesRead();
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class, prepared).media()) {
            StoredFiles.write(media, dir.resolve("stored.webm"));

            assertEquals(CLUSTERS * 10, media.index().fragments().size());
            assertTrue(planned < size / 3, "planning read " + planned + " of " + size + " bytes: more than headers");
            long written = in.bytesRead() - planned;
            assertTrue(written <= size && written > size * 9 / 10, "writing read " + written + " of " + size);
        }
    }
}

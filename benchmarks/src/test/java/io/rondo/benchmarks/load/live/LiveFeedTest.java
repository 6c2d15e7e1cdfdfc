package io.rondo.benchmarks.load.live;

import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.Ffmpeg;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real ffmpeg live fragmented MP4 as the publishers send it. */
class LiveFeedTest {

    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path dir;

    @Test
    void slicesCarryEveryByteAtTheMeanRateAndEachSecondIsAFragmentCompletedInOrder() throws Exception {
        Ffmpeg.assumeInstalled("the live feed's test");
        Path clip = Clip.makeLive(dir, 1_000_000, 6);

        LiveFeed feed = LiveFeed.of(clip, 6 * SECOND_NS, SECOND_NS / 10, SECOND_NS);

        byte[] file = Files.readAllBytes(clip);
        ByteBuffer joined = ByteBuffer.allocate(file.length);
        for (int i = 0; i < feed.slices(); i++) {
            assertEquals(i * SECOND_NS / 10, feed.sliceAtNs(i));
            joined.put(feed.slice(i));
        }
        assertArrayEquals(file, joined.array());
        assertEquals(file.length / 6.0, feed.bytesPerSecond(), file.length / 6.0 * 0.05);
        // A keyframe a second, one round a second: six fragments, and a seventh where the sound's last AAC frame
        // runs past the video's sixth second; each completed no earlier than the one before.
        assertTrue(feed.fragments() == 6 || feed.fragments() == 7, feed.fragments() + " fragments");
        for (int k = 1; k < feed.fragments(); k++) {
            assertTrue(feed.doneBySlice(k) >= feed.doneBySlice(k - 1), "fragment " + k);
        }
        assertEquals(feed.slices(), feed.doneBySlice(feed.fragments() - 1), "the last only the end completes");
    }
}

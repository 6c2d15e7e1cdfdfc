package io.rondo.benchmarks.load.live;

import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.load.paced.PacedReader;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * A recording written best effort, as a recorder without guarantees writes (papers/002 Section 5.2's
 * comparison): the same {@link LiveFeed} slices at the same pace, each written through the page
 * cache as it comes, with a {@code fsync} (fdatasync) once a second. Each second's latency, from
 * the write of its last slice to the end of its fsync, goes to the log: how long that second's
 * bytes took to become durable once they were all there.
 */
public final class FsyncWriter implements Runnable {

    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    private final Path file;
    private final LiveFeed feed;
    private final NanoClock clock;
    private final DelayLog durability;
    private final long startNs;
    private final long endNs;
    private volatile long bytesWritten;
    private volatile String failure;

    /**
     * @param file the recording's file, created or truncated
     * @param durability where each second's write+fsync latency goes
     * @param startNs when the first slice is written
     * @param endNs when writing stops
     */
    public FsyncWriter(Path file, LiveFeed feed, NanoClock clock, DelayLog durability, long startNs, long endNs) {
        this.file = file;
        this.feed = feed;
        this.clock = clock;
        this.durability = durability;
        this.startNs = startNs;
        this.endNs = endNs;
    }

    @Override
    public void run() {
        PacedReader.Sleeper sleeper = PacedReader.parkingOn(clock::nanoTime);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            long nextSyncNs = startNs + SECOND_NS;
            long lastWriteNs = 0;
            for (int i = 0; i < feed.slices() && startNs + feed.sliceAtNs(i) - endNs < 0; i++) {
                long dueNs = startNs + feed.sliceAtNs(i);
                if (dueNs - nextSyncNs >= 0) {
                    sync(channel, lastWriteNs);
                    nextSyncNs += SECOND_NS;
                }
                sleeper.sleepUntil(dueNs);
                ByteBuffer slice = feed.slice(i);
                lastWriteNs = clock.nanoTime();
                while (slice.hasRemaining()) {
                    bytesWritten += channel.write(slice);
                }
            }
            sync(channel, lastWriteNs);
        } catch (IOException e) {
            failure = file + ": " + e.getMessage();
        } catch (InterruptedException e) {
            failure = "interrupted";
            Thread.currentThread().interrupt();
        }
    }

    private void sync(FileChannel channel, long lastWriteNs) throws IOException {
        channel.force(false);
        durability.record(clock.nanoTime() - lastWriteNs, 0);
    }

    /** Bytes written so far. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Why writing stopped early; null if it did not. */
    public String failure() {
        return failure;
    }
}

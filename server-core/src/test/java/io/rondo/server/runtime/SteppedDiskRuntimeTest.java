package io.rondo.server.runtime;

import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.ThreadingMode;
import io.rondo.scheduler.exec.Waiter;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The disks in the invoker threading mode: no thread of their own, every duty cycle stepped by the
 * test on a clock the test moves, so a read is asked for, turned into a D-request and done one
 * {@link DiskRuntime#invoke()} at a time.
 */
class SteppedDiskRuntimeTest {

    @TempDir
    Path folder;

    @Test
    void aReadIsDoneOnlyWhenTheCallerStepsTheDisks() throws Exception {
        CachedNanoClock nanos = new CachedNanoClock();
        nanos.update(5_000_000_000L);
        try (Library library = Library.open(RondoConfig.defaults(), folder.resolve("data"))) {
            byte[] bytes = new byte[64 * 1024];
            new Random(7).nextBytes(bytes);
            Path source = Files.write(folder.resolve("source"), bytes);
            MediaObject object = library.ingest().ingest(new IngestRequest(source, "stepped.bin", null, 0),
                copied -> { });
            try (DiskRuntime disks = new DiskRuntime(DiskRuntime.options(library.store().disks(),
                         library.store()::pathOf)
                     .model(DiskProfile.paperDisk())
                     .emulate(true)
                     .clocks(nanos, new CachedEpochClock())
                     .threadingMode(ThreadingMode.INVOKER)
                     .waiter(Waiter.advancing(nanos)))) {
                disks.start();
                CompletableFuture<Chunk> read = disks.read(object, 0, bytes.length);
                assertFalse(read.isDone(), "nothing runs until the caller steps the disks");

                int steps = 0;
                while (!read.isDone() && steps < 3) {
                    disks.invoke();
                    steps++;
                }

                assertTrue(read.isDone() && !read.isCompletedExceptionally(), "stepping the disks read the bytes");
                assertEquals(0, disks.invoke(), "then nothing is left to do");
                Chunk chunk = read.join();
                ByteBuffer data = chunk.data();
                byte[] got = new byte[data.remaining()];
                data.get(got);
                chunk.release();
                assertArrayEquals(bytes, got);
                assertTrue(nanos.nanoTime() > 5_000_000_000L,
                    "the emulated disk moved the stepped clock by the model's time");
                assertEquals(ThreadingMode.INVOKER, disks.threadingMode());
            }
        }
    }
}

package io.rondo.scheduler.exec;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.device.AlignedBuffers;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.DiskReaders;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.device.WritableFile;
import io.rondo.scheduler.disk.DiskProfile;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recording's fragments written as C-requests of the disk's rounds (papers/000 Section 2.1): in
 * the same scan as the read streams, each charged the model's service time, their bytes on the
 * disk afterwards; a write that fails fails its completion only. Stepped by hand in virtual time.
 */
class DiskExecutorWriteTest {

    private static final long ROUND_NS = 1_000_000_000L;
    private static final int BLOCK = DiskIo.ALIGNMENT;

    @TempDir
    Path dir;

    private final DiskProfile paper = DiskProfile.paperDisk();
    private final CachedNanoClock clock = new CachedNanoClock();
    private final List<String> events = new ArrayList<>();
    private final Thread testThread = Thread.currentThread();
    private final IoCompletion recorder = new IoCompletion() {
        @Override
        public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
            assertTrue(Thread.currentThread() == testThread, "told on the executor's (here the stepping) thread");
            events.add(request.id() + (data == null ? " written" : " read " + data.remaining()) + " at "
                + completedNs);
            if (buffer != null) {
                buffer.release();
            }
        }

        @Override
        public void failed(DiskRequest request, Exception error, long failedNs) {
            events.add(request.id() + " failed: " + error.getMessage());
        }
    };

    private DiskExecutor stepped(BlockDevice device, BufferPool pool) {
        return DiskExecutorTest.stepped(paper, clock, device, pool);
    }

    private ContinuousRequest request(long id, int cylinder, IoTask task) {
        ContinuousRequest request = new ContinuousRequest(id, id, paper.positionOfCylinder(cylinder), task.length());
        request.knownRotationNs(0);
        request.attach(task);
        return request;
    }

    private static ByteBuffer block(byte[] bytes, int from, int length) {
        return AlignedBuffers.allocate(length).put(bytes, from, length).flip();
    }

    @Test
    void aRoundOfReadsAndWritesIsOneScanAndTheWritesLand() throws IOException {
        byte[] clip = new byte[1 << 16];
        new Random(1).nextBytes(clip);
        Files.write(dir.resolve("clip"), clip);
        byte[] fragments = new byte[3 * BLOCK];
        new Random(2).nextBytes(fragments);
        Path recording = dir.resolve("recording");
        BufferPool pool = new BufferPool(1 << 20);
        DiskExecutor executor = stepped(new EmulatedDisk(BlockDevice.direct(), paper, clock,
            Waiter.advancing(clock), 1), pool);
        ByteBuffer first = block(fragments, 0, 2 * BLOCK);
        try (OpenFile in = DiskIo.best().open(dir.resolve("clip"));
             WritableFile out = DiskIo.best().openForWriting(recording)) {
            List<ContinuousRequest> round = List.of(
                request(1, 3000, new IoTask(in, 100, 5000, BufferPool.NO_STREAM, recorder)),
                request(2, 1000, IoTask.write(out, 0, first, true, recorder)),
                request(3, 2000, IoTask.write(out, 2 * BLOCK, block(fragments, 2 * BLOCK, BLOCK), false, recorder)),
                request(4, 500, new IoTask(in, 0, 4096, BufferPool.NO_STREAM, recorder)));
            executor.startRound(0, round);
            while (executor.doWork() > 0) {
                assertTrue(events.size() <= 4, "each completion told once: " + events);
            }

            long at = 0;
            long head = 0;
            List<String> expected = new ArrayList<>();
            for (ContinuousRequest request : List.of(round.get(3), round.get(1), round.get(2), round.get(0))) {
                at += paper.seekNs(head, request.position()) + paper.transferNs(request.position(),
                    request.sizeBytes());
                head = request.position();
                IoTask task = (IoTask) request.attachment();
                expected.add(request.id() + (task.isWrite() ? " written" : " read " + task.length()) + " at " + at);
            }
            assertEquals(expected, events, "one sweep by position, writes charged the model's time as reads are");
            assertEquals(3 * BLOCK, out.size());
        }
        assertEquals(0, first.position(), "the written buffer is left as it was, the caller's");
        assertArrayEquals(fragments, Files.readAllBytes(recording), "the fragments are on the disk");
        for (DiskIo reader : List.of(DiskReaders.javaReader("a test"), DiskIo.best())) {
            try (OpenFile back = reader.open(recording)) {
                ByteBuffer bytes = back.read(0, fragments.length, AlignedBuffers.allocate(fragments.length));
                byte[] read = new byte[bytes.remaining()];
                bytes.get(read);
                assertArrayEquals(fragments, read, reader.kind() + " reads the fragments back");
            }
        }
        assertEquals(2, executor.writes());
        assertEquals(3 * BLOCK, executor.writeBytes());
        assertEquals(0, executor.ioErrors());
        assertEquals(0, pool.outstanding(), "writes take no buffer; the reads' came back");
    }

    @Test
    void aFailingWriteFailsItsCompletionCountsAndTheRoundGoesOn() throws IOException {
        WritableFile closed = DiskIo.best().openForWriting(dir.resolve("closed"));
        closed.close();
        DiskExecutor executor = stepped(BlockDevice.direct(), new BufferPool(1 << 20));
        byte[] bytes = new byte[BLOCK];
        Arrays.fill(bytes, (byte) 9);
        try (WritableFile out = DiskIo.best().openForWriting(dir.resolve("open"))) {
            executor.startRound(0, List.of(
                request(1, 100, IoTask.write(closed, 0, block(bytes, 0, BLOCK), true, recorder)),
                request(2, 200, IoTask.write(out, 0, block(bytes, 0, BLOCK), true, recorder))));
            while (executor.doWork() > 0) {
                assertTrue(events.size() <= 2, events.toString());
            }
        }

        assertEquals(2, events.size(), events.toString());
        assertTrue(events.get(0).startsWith("1 failed: write " + dir.resolve("closed") + ": the file is closed"),
            events.toString());
        assertTrue(events.get(1).startsWith("2 written"), events.toString());
        assertEquals(1, executor.ioErrors());
        assertEquals(1, executor.writes());
        assertEquals(BLOCK, executor.writeBytes());
        assertArrayEquals(bytes, Files.readAllBytes(dir.resolve("open")));
    }

    @Test
    void aWriteTheRoundDidNotReachFailsWithAMissedRound() {
        DiskExecutor executor = stepped(new EmulatedDisk(BlockDevice.direct(), paper, clock,
            Waiter.advancing(clock), 1), new BufferPool(1 << 20));
        executor.startRound(0, List.of(
            request(1, 1000, IoTask.write(null, 0, AlignedBuffers.allocate(100 * BLOCK), false, recorder)),
            request(2, 3000, IoTask.write(null, 0, AlignedBuffers.allocate(100 * BLOCK), false, recorder))));
        executor.doWork();
        clock.update(ROUND_NS);
        executor.startRound(ROUND_NS, List.of());
        executor.doWork();

        assertEquals(2, events.size(), events.toString());
        assertTrue(events.get(0).startsWith("1 written"), events.toString());
        assertTrue(events.get(1).startsWith("2 failed: disk test did not write C2"), events.toString());
        assertEquals(0, executor.ioErrors(), "a dropped write is no device error");
    }

    @Test
    void anUnalignedWriteIsRefusedWhenItIsMade() {
        ByteBuffer data = AlignedBuffers.allocate(BLOCK);
        assertThrows(IllegalArgumentException.class, () -> IoTask.write(null, 100, data, false, recorder));
        assertThrows(IllegalArgumentException.class,
            () -> IoTask.write(null, 0, data.duplicate().limit(100), false, recorder));
        assertThrows(IllegalArgumentException.class,
            () -> new IoTask(null, 0, 2 * BLOCK, BufferPool.NO_STREAM, recorder, data, false));
        assertTrue(IoTask.write(null, 0, data, false, recorder).isWrite());
        assertFalse(new IoTask(null, 0, BLOCK, BufferPool.NO_STREAM, recorder).isWrite());
    }
}

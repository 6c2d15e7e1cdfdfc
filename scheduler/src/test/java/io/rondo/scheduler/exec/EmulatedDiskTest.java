package io.rondo.scheduler.exec;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.DiscreteRequest;
import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.disk.DiskProfile;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The emulated disk completes each IO exactly when its model says, from the head position it tracks. */
class EmulatedDiskTest {

    private static final IoCompletion IGNORED = new IoCompletion() {
        @Override
        public void completed(DiskRequest request, ByteBuffer data, PooledBuffer buffer, long completedNs) {
        }

        @Override
        public void failed(DiskRequest request, Exception error, long failedNs) {
        }
    };

    private final DiskProfile paper = DiskProfile.paperDisk();
    private final CachedNanoClock clock = new CachedNanoClock();

    @Test
    void eachIoTakesSeekPlusKnownRotationPlusTransferOfThePapersDisk() throws Exception {
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 1);
        clock.update(1_000);
        DiskRequest far = request(paper.positionOfCylinder(2000), 800_000, 3_000_000);
        DiskRequest near = request(paper.positionOfCylinder(2010), 50_000, 0);

        disk.read(far, task(far), null);
        long afterFar = clock.nanoTime();
        disk.read(near, task(near), null);

        long expectFar = paper.seekNs(0, far.position()) + 3_000_000 + paper.transferNs(far.position(), 800_000);
        assertEquals(1_000 + expectFar, afterFar);
        long expectNear = paper.seekNs(far.position(), near.position()) + paper.transferNs(near.position(), 50_000);
        assertEquals(afterFar + expectNear, clock.nanoTime(), "the head moved to the first request");
        assertEquals(near.position(), disk.headPosition());
    }

    /** Over many random IOs, every completion lies within [seek + transfer, seek + revolution + transfer]. */
    @Test
    void unknownRotationalDelaysFallWithinOneRevolution() throws Exception {
        EmulatedDisk disk = new EmulatedDisk(BlockDevice.direct(), paper, clock, Waiter.advancing(clock), 7);
        SplittableRandom random = new SplittableRandom(3);
        long head = 0;
        double rotationSumNs = 0;
        int ios = 2_000;
        for (int i = 0; i < ios; i++) {
            DiskRequest request = request((long) (random.nextDouble() * paper.capacityBytes()),
                1 + random.nextInt(1_000_000), -1);
            long before = clock.nanoTime();
            disk.read(request, task(request), null);
            long rotationNs = clock.nanoTime() - before - paper.seekNs(head, request.position())
                - paper.transferNs(request.position(), request.sizeBytes());
            assertTrue(rotationNs >= 0 && rotationNs < paper.worstCaseRotationNs(), "rotation " + rotationNs);
            rotationSumNs += rotationNs;
            head = request.position();
        }
        double meanRotationMs = rotationSumNs / ios / 1e6;
        assertEquals(8.34 / 2, meanRotationMs, 0.25, "uniform over one revolution: half a revolution on average");
        assertEquals(ios, disk.ios());
        assertEquals(0, disk.overrunIos());
    }

    @Test
    void aRealReadSlowerThanTheModelCompletesLateAndIsCounted() throws Exception {
        BlockDevice slow = (request, task, scratch) -> {
            clock.advance(1_000_000_000L);
            return null;
        };
        EmulatedDisk disk = new EmulatedDisk(slow, paper, clock, Waiter.advancing(clock), 1);
        DiskRequest request = request(0, 4096, 0);

        disk.read(request, task(request), null);

        assertEquals(1_000_000_000L, clock.nanoTime(), "no extra wait once the model's time has passed");
        assertEquals(1, disk.overrunIos());
    }

    private static DiskRequest request(long position, long size, long rotationNs) {
        DiskRequest request = size > 500_000 ? new ContinuousRequest(position, 0, position, size)
            : new DiscreteRequest(position, position, position, size, 0);
        if (rotationNs >= 0) {
            request.knownRotationNs(rotationNs);
        }
        return request;
    }

    private static IoTask task(DiskRequest request) {
        return new IoTask(null, 0, (int) request.sizeBytes(), BufferPool.NO_STREAM, IGNORED);
    }
}

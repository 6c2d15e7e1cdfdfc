package io.rondo.systemtest;

import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.exec.BlockDevice;
import io.rondo.scheduler.exec.IoTask;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A disk with bad sectors under some files: every read of a file in {@link #fail} fails as a
 * dying disk's does (EIO, "Input/output error"); every other read passes through to the device.
 */
final class FailingFilesDevice implements BlockDevice {

    private final BlockDevice device;
    private final Set<Path> failing;
    private final AtomicLong failed;

    private FailingFilesDevice(BlockDevice device, Set<Path> failing, AtomicLong failed) {
        this.device = device;
        this.failing = failing;
        this.failed = failed;
    }

    /** The files whose reads fail, shared by every disk this wraps; add to it at any time. */
    static final class Faults {
        private final Set<Path> failing = ConcurrentHashMap.newKeySet();
        private final AtomicLong failed = new AtomicLong();

        /** From now on, every read of {@code file} fails. */
        void fail(Path file) {
            failing.add(file.toAbsolutePath().normalize());
        }

        /** How many reads failed. */
        long failedReads() {
            return failed.get();
        }

        /** Wraps one disk's device. */
        BlockDevice wrap(BlockDevice device) {
            return new FailingFilesDevice(device, failing, failed);
        }
    }

    @Override
    public ByteBuffer read(DiskRequest request, IoTask task, ByteBuffer scratch) throws IOException {
        if (task.file() != null && failing.contains(task.file().path().toAbsolutePath().normalize())) {
            failed.incrementAndGet();
            throw new IOException("pread " + task.file().path() + " at " + task.offset() + ": Input/output error");
        }
        return device.read(request, task, scratch);
    }
}

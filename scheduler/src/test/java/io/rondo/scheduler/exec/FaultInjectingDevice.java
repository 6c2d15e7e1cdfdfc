package io.rondo.scheduler.exec;

import io.rondo.scheduler.DiskRequest;

import java.io.IOException;
import java.nio.ByteBuffer;

/** A device wrapper that fails chosen reads as a dying disk does: EIO, "Input/output error". */
final class FaultInjectingDevice implements BlockDevice {

    private final BlockDevice device;
    private final long failingIo;
    private long ios;

    /** Fails the read numbered {@code failingIo} (counting from 1), passes the others through. */
    FaultInjectingDevice(BlockDevice device, long failingIo) {
        this.device = device;
        this.failingIo = failingIo;
    }

    @Override
    public ByteBuffer read(DiskRequest request, IoTask task, ByteBuffer scratch) throws IOException {
        if (++ios == failingIo) {
            throw new IOException("pread " + task.file().path() + " at " + task.offset() + ": Input/output error");
        }
        return device.read(request, task, scratch);
    }
}

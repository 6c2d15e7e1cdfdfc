package io.rondo.server.runtime;

import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.OpenFile;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.exec.DiskExecutor;
import io.rondo.server.observe.DiskWatch;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One disk at run time: its executor, its model, the size of the device under it and what it did.
 *
 * <p>Positions: the scheduler orders reads by position in its disk model's address space. The
 * physical address FIEMAP gives is scaled from the device's size onto the model's capacity, so the
 * order is the device's and the seek estimates are the model's.
 */
record RuntimeDisk(String name, DiskExecutor executor, DiskProfile model, long deviceBytes, DiskWatch watch) {

    /** The model position of a file offset: its physical address, scaled from the device onto the model. */
    long position(OpenFile file, long fileOffset) {
        long physical;
        try {
            physical = file.physicalPosition(fileOffset);
        } catch (IOException e) {
            physical = fileOffset;
        }
        long capacity = model.capacityBytes();
        long scaled = deviceBytes > 0 ? (long) ((double) physical / deviceBytes * capacity) : physical;
        return Math.max(0, Math.min(scaled, capacity - 1));
    }

    /** The size of the block device a root lives on, from sysfs; 0 if unknown. */
    static long deviceBytes(Path root, DiskIo io) {
        try {
            return io.device(root).sizeBytes();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}

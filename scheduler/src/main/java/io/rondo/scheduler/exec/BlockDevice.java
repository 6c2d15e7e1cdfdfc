package io.rondo.scheduler.exec;

import io.rondo.scheduler.DiskRequest;

import java.io.IOException;
import java.nio.ByteBuffer;

/** One disk as its executor sees it: something that performs one read at a time, blocking. */
public interface BlockDevice {

    /**
     * Performs the read {@code task} names into {@code scratch} (direct, aligned, large enough for
     * the aligned span) and returns when the IO is complete: the bytes asked for, as a view of
     * {@code scratch}. With no file behind the task, returns null once the IO's time has passed.
     */
    ByteBuffer read(DiskRequest request, IoTask task, ByteBuffer scratch) throws IOException;

    /** A device that reads the file and takes as long as that takes. */
    static BlockDevice direct() {
        return (request, task, scratch) -> task.file() == null ? null
            : task.file().read(task.offset(), task.length(), scratch);
    }
}

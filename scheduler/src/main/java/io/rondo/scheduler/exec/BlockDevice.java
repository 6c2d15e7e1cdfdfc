package io.rondo.scheduler.exec;

import io.rondo.scheduler.DiskRequest;
import io.rondo.scheduler.device.WritableFile;

import java.io.IOException;
import java.nio.ByteBuffer;

/** One disk as its executor sees it: something that performs one IO at a time, blocking. */
public interface BlockDevice {

    /**
     * Performs the read {@code task} names into {@code scratch} (direct, aligned, large enough for
     * the aligned span) and returns when the IO is complete: the bytes asked for, as a view of
     * {@code scratch}. With no file behind the task, returns null once the IO's time has passed.
     */
    ByteBuffer read(DiskRequest request, IoTask task, ByteBuffer scratch) throws IOException;

    /**
     * Performs the write {@code task} names ({@link IoTask#isWrite()}) and returns when it is
     * complete, and durable if the task asks to be forced; {@code task}'s source buffer is left as
     * it was. With no file behind the task, returns once the IO's time has passed. By default the
     * write goes through the file and takes as long as that takes, whatever the device does with
     * reads.
     */
    default void write(DiskRequest request, IoTask task) throws IOException {
        WritableFile file = task.target();
        if (file == null) {
            return;
        }
        file.writeAligned(task.offset(), task.source().duplicate());
        if (task.force()) {
            file.force();
        }
    }

    /** A device that reads and writes the file and takes as long as that takes. */
    static BlockDevice direct() {
        return (request, task, scratch) -> task.file() == null ? null
            : task.file().read(task.offset(), task.length(), scratch);
    }
}

package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The way Rondo reads and writes its disks: the JNI reader ({@code librondo_disk.so}: O_DIRECT, FIEMAP,
 * posix_fadvise, fallocate) where it loads, else a pure-Java reader (FileChannel with
 * {@code ExtendedOpenOption.DIRECT}, logical offsets as positions). One per process.
 */
public interface DiskIo {

    /** The system property that forbids the native reader when set to {@code false}. */
    String NATIVE_PROPERTY = "rondo.native";

    /** The alignment O_DIRECT needs of offsets, lengths and buffer addresses. */
    int ALIGNMENT = 4096;

    /**
     * The native reader if it loads and {@code -Drondo.native=false} is not set, else the Java one.
     * Says once, on standard error, when it falls back and why.
     */
    static DiskIo best() {
        return DiskIoSelector.best();
    }

    /** {@code native} or {@code java}. */
    String kind();

    /** Why the native reader is not in use, or null if it is. */
    String fallbackReason();

    /** Whether files are opened with O_DIRECT (bypassing the page cache). */
    boolean directIo();

    /** Whether {@link OpenFile#physicalPosition} gives physical device addresses (FIEMAP). */
    boolean physicalPositions();

    /** Opens a file for reading, with O_DIRECT where the reader and file system allow it. */
    OpenFile open(Path file) throws IOException;

    /**
     * Opens a file for reading and writing, with O_DIRECT where the reader and file system allow
     * it, creating it (empty) if it does not exist; an existing file keeps its bytes and size.
     */
    WritableFile openForWriting(Path file) throws IOException;

    /** The block device a path lives on. */
    DeviceInfo device(Path path) throws IOException;
}

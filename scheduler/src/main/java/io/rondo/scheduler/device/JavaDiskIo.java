package io.rondo.scheduler.device;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * The pure-Java reader, for where {@code librondo_disk.so} cannot load: a FileChannel opened with
 * {@link ExtendedOpenOption#DIRECT} where the file system accepts it (else through the page cache),
 * and the logical offset standing in for the physical position. SCAN still works, on the order of
 * offsets within each file, which is as much as Java can know.
 */
final class JavaDiskIo implements DiskIo {

    private final String fallbackReason;
    private final BlockDevices devices;

    /** A reader that says {@code fallbackReason} is why it, not the native one, is in use. */
    JavaDiskIo(String fallbackReason) {
        this(fallbackReason, new BlockDevices(BlockDevices.SYS_DEV_BLOCK));
    }

    JavaDiskIo(String fallbackReason, BlockDevices devices) {
        this.fallbackReason = fallbackReason;
        this.devices = devices;
    }

    @Override
    public String kind() {
        return "java";
    }

    @Override
    public String fallbackReason() {
        return fallbackReason;
    }

    /** True: files are asked for with O_DIRECT; one whose file system refuses it is read through the page cache. */
    @Override
    public boolean directIo() {
        return true;
    }

    @Override
    public boolean physicalPositions() {
        return false;
    }

    @Override
    public OpenFile open(Path file) throws IOException {
        checkRegularFile(file, false);
        return openChannel(file, false, StandardOpenOption.READ);
    }

    @Override
    public WritableFile openForWriting(Path file) throws IOException {
        checkRegularFile(file, true);
        return openChannel(file, true, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** Opens with O_DIRECT, or through the page cache where the file system refuses it. */
    private static JavaOpenFile openChannel(Path file, boolean writable, OpenOption... options) throws IOException {
        OpenOption[] direct = Arrays.copyOf(options, options.length + 1);
        direct[options.length] = ExtendedOpenOption.DIRECT;
        try {
            return new JavaOpenFile(file, FileChannel.open(file, direct), true, writable);
        } catch (AccessDeniedException | NoSuchFileException e) {
            throw failure(file, e);
        } catch (FileSystemException refused) {
            // The file system refuses O_DIRECT (EINVAL): go through the page cache instead.
            try {
                return new JavaOpenFile(file, FileChannel.open(file, options), false, writable);
            } catch (FileSystemException e) {
                throw failure(file, e);
            }
        }
    }

    /** Refuses a directory or anything but a regular file; a missing file only if it may not be created. */
    private static void checkRegularFile(Path file, boolean mayBeMissing) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            if (mayBeMissing) {
                return;
            }
            throw new FileNotFoundException("open " + file + ": No such file or directory");
        } catch (FileSystemException e) {
            throw failure(file, e);
        }
        if (attributes.isDirectory()) {
            throw new IOException("open " + file + ": Is a directory");
        }
        if (!attributes.isRegularFile()) {
            throw new IOException("open " + file + ": not a regular file (a device, FIFO or socket)");
        }
    }

    @Override
    public DeviceInfo device(Path path) throws IOException {
        return devices.of(path);
    }

    private static IOException failure(Path file, FileSystemException e) {
        String reason = e instanceof NoSuchFileException ? "No such file or directory"
            : e instanceof AccessDeniedException ? "Permission denied"
            : e.getReason() != null ? e.getReason() : e.toString();
        IOException failure = e instanceof NoSuchFileException
            ? new FileNotFoundException("open " + file + ": " + reason)
            : new IOException("open " + file + ": " + reason);
        failure.initCause(e);
        return failure;
    }
}

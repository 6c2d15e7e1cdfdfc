package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds the block device behind a path: {@code st_dev} (as Java's {@code unix:dev} attribute) names
 * it, and {@code /sys/dev/block/MAJ:MIN} describes it. A partition ({@code vda1}) has no
 * {@code queue/} folder of its own: it sits inside its disk's folder, whose {@code queue/} it uses.
 * Loop and device-mapper devices ({@code loop0}, {@code dm-0}) have their own. A file system with
 * no block device (tmpfs, overlayfs, btrfs subvolumes) gets an anonymous {@code 0:N} that sysfs does
 * not know: that is reported as {@code unknown}, not rotational, with 512-byte blocks and no size.
 * A device's {@code size} is in 512-byte sectors whatever its block size; a partition has its own.
 */
final class BlockDevices {

    /** Where the kernel lists block devices by number. */
    static final Path SYS_DEV_BLOCK = Path.of("/sys/dev/block");

    static final String UNKNOWN = "unknown";
    static final int DEFAULT_LOGICAL_BLOCK_SIZE = 512;
    /** The unit of sysfs's {@code size}, whatever the device's block size. */
    static final int SECTOR_BYTES = 512;

    private final Path sysDevBlock;

    /** Reads {@code sysDevBlock} (normally {@link #SYS_DEV_BLOCK}; a fake tree in tests). */
    BlockDevices(Path sysDevBlock) {
        this.sysDevBlock = sysDevBlock;
    }

    /** The device a path lives on. */
    DeviceInfo of(Path path) throws IOException {
        Object dev;
        try {
            dev = Files.getAttribute(path, "unix:dev");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            throw new IOException("device of " + path + ": its file system does not report st_dev", e);
        }
        long number = ((Number) dev).longValue();
        return lookup(major(number), minor(number));
    }

    /** The device with these numbers, as sysfs describes it. */
    DeviceInfo lookup(int major, int minor) throws IOException {
        Path link = sysDevBlock.resolve(major + ":" + minor);
        if (!Files.exists(link)) {
            return new DeviceInfo(major, minor, UNKNOWN, false, DEFAULT_LOGICAL_BLOCK_SIZE, 0);
        }
        Path folder = link.toRealPath();
        Path queue = folder.resolve("queue");
        if (!Files.isDirectory(queue) && Files.exists(folder.resolve("partition"))) {
            queue = folder.getParent().resolve("queue");
        }
        String rotational = readFirstLine(queue.resolve("rotational"));
        String blockSize = readFirstLine(queue.resolve("logical_block_size"));
        String sectors = readFirstLine(folder.resolve("size"));
        return new DeviceInfo(major, minor, name(folder), "1".equals(rotational),
            blockSize == null ? DEFAULT_LOGICAL_BLOCK_SIZE : Integer.parseInt(blockSize),
            sectors == null ? 0 : Long.parseLong(sectors) * SECTOR_BYTES);
    }

    /** The major number in glibc's encoding of a {@code dev_t}. */
    static int major(long dev) {
        return (int) (((dev >>> 32) & 0xfffff000L) | ((dev >>> 8) & 0xfffL));
    }

    /** The minor number in glibc's encoding of a {@code dev_t}. */
    static int minor(long dev) {
        return (int) (((dev >>> 12) & 0xffffff00L) | (dev & 0xffL));
    }

    /** {@code DEVNAME} from {@code uevent}, else the folder's own name. */
    private static String name(Path folder) throws IOException {
        Path uevent = folder.resolve("uevent");
        if (Files.isReadable(uevent)) {
            List<String> lines = Files.readAllLines(uevent);
            for (String line : lines) {
                if (line.startsWith("DEVNAME=") && line.length() > "DEVNAME=".length()) {
                    return line.substring("DEVNAME=".length()).trim();
                }
            }
        }
        Path last = folder.getFileName();
        return last == null ? UNKNOWN : last.toString();
    }

    private static String readFirstLine(Path file) throws IOException {
        if (!Files.isReadable(file)) {
            return null;
        }
        List<String> lines = Files.readAllLines(file);
        return lines.isEmpty() ? null : lines.get(0).trim();
    }
}

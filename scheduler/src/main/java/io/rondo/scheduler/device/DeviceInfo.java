package io.rondo.scheduler.device;

/**
 * The block device behind a path, from {@code st_dev} and {@code /sys/dev/block/MAJ:MIN}.
 *
 * @param major              the device's major number
 * @param minor              the device's minor number
 * @param name               the kernel's name for it ({@code vda}, {@code nvme0n1p2}), or
 *                           {@code unknown} where sysfs says nothing
 * @param rotational         whether the kernel calls it rotational (a spinning disk)
 * @param logicalBlockSize   its logical block size in bytes
 * @param sizeBytes          its size in bytes (a partition's own, not its disk's), or 0 where sysfs
 *                           says nothing
 */
public record DeviceInfo(int major, int minor, String name, boolean rotational, int logicalBlockSize,
                         long sizeBytes) {

    /** {@code MAJ:MIN}, as sysfs names it. */
    public String id() {
        return major + ":" + minor;
    }
}

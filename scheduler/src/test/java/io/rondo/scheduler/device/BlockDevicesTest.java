package io.rondo.scheduler.device;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Reading {@code /sys/dev/block} for a disk, a partition (whose {@code queue/} is its disk's but
 * whose size is its own), a loop device, a device-mapper device and an anonymous device, on a fake
 * sysfs tree laid out as the kernel lays out the real one.
 */
class BlockDevicesTest {

    @TempDir
    Path sys;

    private BlockDevices devices;

    @BeforeEach
    void fakeSysfs() throws IOException {
        Path block = sys.resolve("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block");
        Path sda = device(block.resolve("sda"), "sda", "1", "512");
        Files.writeString(sda.resolve("size"), "1953525168\n");
        Path sda1 = Files.createDirectories(sda.resolve("sda1"));
        Files.writeString(sda1.resolve("uevent"), "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n");
        Files.writeString(sda1.resolve("partition"), "1\n");
        Files.writeString(sda1.resolve("size"), "2048000\n");
        Path virtual = sys.resolve("devices/virtual/block");
        device(virtual.resolve("loop0"), "loop0", "0", "512");
        device(virtual.resolve("dm-0"), "dm-0", "0", "4096");
        Path nvme = device(sys.resolve("devices/pci0000:00/nvme/nvme0/nvme0n1"), null, "0", "4096");
        Files.writeString(nvme.resolve("size"), "1000215216\n");
        Path byNumber = Files.createDirectories(sys.resolve("dev/block"));
        link(byNumber, "8:0", sda);
        link(byNumber, "8:1", sda1);
        link(byNumber, "7:0", virtual.resolve("loop0"));
        link(byNumber, "253:0", virtual.resolve("dm-0"));
        link(byNumber, "259:0", nvme);
        devices = new BlockDevices(byNumber);
    }

    private static Path device(Path folder, String devName, String rotational, String blockSize) throws IOException {
        Files.createDirectories(folder.resolve("queue"));
        if (devName != null) {
            Files.writeString(folder.resolve("uevent"), "MAJOR=1\nDEVNAME=" + devName + "\nDEVTYPE=disk\n");
        }
        Files.writeString(folder.resolve("queue/rotational"), rotational + "\n");
        Files.writeString(folder.resolve("queue/logical_block_size"), blockSize + "\n");
        return folder;
    }

    private static void link(Path byNumber, String id, Path target) throws IOException {
        Files.createSymbolicLink(byNumber.resolve(id), byNumber.relativize(target));
    }

    @Test
    void aDiskIsReadFromItsOwnQueue() throws IOException {
        assertEquals(new DeviceInfo(8, 0, "sda", true, 512, 1953525168L * 512), devices.lookup(8, 0));
    }

    @Test
    void aPartitionUsesItsDisksQueueButHasItsOwnSize() throws IOException {
        assertEquals(new DeviceInfo(8, 1, "sda1", true, 512, 2048000L * 512), devices.lookup(8, 1));
    }

    @Test
    void loopAndDeviceMapperDevicesHaveTheirOwnQueues() throws IOException {
        assertEquals(new DeviceInfo(7, 0, "loop0", false, 512, 0), devices.lookup(7, 0));
        assertEquals(new DeviceInfo(253, 0, "dm-0", false, 4096, 0), devices.lookup(253, 0));
    }

    @Test
    void withoutDevnameTheFolderNamesTheDevice() throws IOException {
        assertEquals(new DeviceInfo(259, 0, "nvme0n1", false, 4096, 1000215216L * 512), devices.lookup(259, 0));
    }

    @Test
    void anAnonymousDeviceIsUnknown() throws IOException {
        assertEquals(new DeviceInfo(0, 42, BlockDevices.UNKNOWN, false, BlockDevices.DEFAULT_LOGICAL_BLOCK_SIZE, 0),
            devices.lookup(0, 42));
    }

    @Test
    void deviceNumbersDecodeAsGlibcEncodesThem() {
        assertEquals(254, BlockDevices.major(0xfe00));
        assertEquals(0, BlockDevices.minor(0xfe00));
        long major = 4100;
        long minor = 300_000;
        long dev = ((major & 0xfffff000L) << 32) | ((major & 0xfffL) << 8)
            | ((minor & 0xffffff00L) << 12) | (minor & 0xffL);
        assertEquals(4100, BlockDevices.major(dev));
        assertEquals(300_000, BlockDevices.minor(dev));
    }
}

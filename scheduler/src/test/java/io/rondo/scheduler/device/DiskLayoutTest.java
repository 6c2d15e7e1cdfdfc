package io.rondo.scheduler.device;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Storage roots become disks by device; merges are said, and bad roots are refused by name. */
class DiskLayoutTest {

    @TempDir
    Path dir;

    /** Two folders on one file system are one device, so one disk, and a note says why. */
    @Test
    void twoRootsOnOneFileSystemFormOneDiskWithANote() throws IOException {
        Path a = Files.createDirectory(dir.resolve("a"));
        Path b = Files.createDirectory(dir.resolve("b"));
        DiskIo io = DiskIo.best();
        DeviceInfo device = io.device(a);

        DiskLayout layout = DiskLayout.of(List.of(a, b), io);

        assertEquals(1, layout.disks().size(), layout.disks().toString());
        DiskLayout.ConfiguredDisk disk = layout.disks().get(0);
        assertEquals(device.name(), disk.name());
        assertEquals(device, disk.device());
        assertEquals(List.of(a.toAbsolutePath(), b.toAbsolutePath()), disk.roots());
        assertEquals(List.of("storage roots " + a.toAbsolutePath() + " and " + b.toAbsolutePath()
            + " are on one device (" + device.name() + ", " + device.id() + "): they form one disk"), layout.notes());
    }

    /** Roots on different devices stay apart, in the order given; devices sysfs does not know keep apart by number. */
    @Test
    void rootsOnDifferentDevicesAreDifferentDisks() throws IOException {
        Path a = Files.createDirectory(dir.resolve("a"));
        Path b = Files.createDirectory(dir.resolve("b"));
        Path c = Files.createDirectory(dir.resolve("c"));
        DiskIo io = fake(Map.of(a, new DeviceInfo(0, 45, "unknown", false, 512, 0),
            b, new DeviceInfo(0, 46, "unknown", false, 512, 0),
            c, new DeviceInfo(0, 45, "unknown", false, 512, 0)));

        DiskLayout layout = DiskLayout.of(List.of(a, b, c), io);

        assertEquals(2, layout.disks().size());
        assertEquals("unknown-0-45", layout.disks().get(0).name());
        assertEquals(List.of(a, c), layout.disks().get(0).roots());
        assertEquals("unknown-0-46", layout.disks().get(1).name());
        assertEquals(List.of(b), layout.disks().get(1).roots());
        assertEquals(1, layout.notes().size(), layout.notes().toString());
        assertTrue(layout.notes().get(0).contains(a + " and " + c), layout.notes().toString());
    }

    /** The same folder given twice is one root, and the note says so. */
    @Test
    void aRootGivenTwiceCountsOnce() throws IOException {
        Path a = Files.createDirectory(dir.resolve("a"));

        DiskLayout layout = DiskLayout.of(List.of(a, a.resolve("..").resolve("a")), DiskIo.best());

        assertEquals(List.of(a), layout.disks().get(0).roots());
        assertEquals(List.of("storage root " + a + " is listed twice: counted once"), layout.notes());
    }

    @Test
    void refusesAMissingRootNamingIt() {
        Path missing = dir.resolve("missing");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> DiskLayout.of(List.of(dir, missing), DiskIo.best()));

        assertEquals("storage root " + missing + " does not exist", e.getMessage());
    }

    @Test
    void refusesAFileAsARoot() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "not a folder");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> DiskLayout.of(List.of(file), DiskIo.best()));

        assertEquals("storage root " + file + " is not a directory", e.getMessage());
    }

    @Test
    void refusesNoRoots() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> DiskLayout.of(List.of(), DiskIo.best()));

        assertTrue(e.getMessage().contains("no storage roots"), e.getMessage());
    }

    /** A reader whose devices are given; nothing is opened. */
    private static DiskIo fake(Map<Path, DeviceInfo> devices) {
        return new DiskIo() {
            @Override
            public String kind() {
                return "fake";
            }

            @Override
            public String fallbackReason() {
                return "a test";
            }

            @Override
            public boolean directIo() {
                return false;
            }

            @Override
            public boolean physicalPositions() {
                return false;
            }

            @Override
            public OpenFile open(Path file) throws IOException {
                throw new IOException("not in this test");
            }

            @Override
            public WritableFile openForWriting(Path file) throws IOException {
                throw new IOException("not in this test");
            }

            @Override
            public DeviceInfo device(Path path) {
                return devices.get(path);
            }
        };
    }
}

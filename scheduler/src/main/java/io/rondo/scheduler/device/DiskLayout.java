package io.rondo.scheduler.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which disks a set of storage roots makes. A disk is one device (DESIGN.md, "Disks"): two roots
 * on one device share one head, so they must share one scheduler and one round, or each would plan
 * its seeks as if it had the device to itself. Roots are grouped by {@code MAJ:MIN}, in the order
 * they were given, and every merge is said in a note so that nobody wonders where a disk went.
 */
public final class DiskLayout {

    private final List<ConfiguredDisk> disks;
    private final List<String> notes;

    private DiskLayout(List<ConfiguredDisk> disks, List<String> notes) {
        this.disks = List.copyOf(disks);
        this.notes = List.copyOf(notes);
    }

    /**
     * Groups {@code roots} by the device each lives on, as {@code io} reports it.
     *
     * @throws IllegalArgumentException if there are no roots, or one does not exist or is not a directory
     * @throws IOException              if a root's device cannot be found
     */
    public static DiskLayout of(List<Path> roots, DiskIo io) throws IOException {
        if (roots == null || roots.isEmpty()) {
            throw new IllegalArgumentException("no storage roots: give at least one directory");
        }
        List<String> notes = new ArrayList<>();
        Map<Path, Path> seen = new HashMap<>();
        Map<String, List<Path>> rootsByDevice = new LinkedHashMap<>();
        Map<String, DeviceInfo> devices = new HashMap<>();
        for (Path given : roots) {
            Path root = given.toAbsolutePath().normalize();
            if (!Files.exists(root)) {
                throw new IllegalArgumentException("storage root " + root + " does not exist");
            }
            if (!Files.isDirectory(root)) {
                throw new IllegalArgumentException("storage root " + root + " is not a directory");
            }
            Path real = root.toRealPath();
            Path earlier = seen.putIfAbsent(real, root);
            if (earlier != null) {
                notes.add(earlier.equals(root) ? "storage root " + root + " is listed twice: counted once"
                    : "storage roots " + earlier + " and " + root + " are the same directory (" + real
                    + "): counted once");
                continue;
            }
            DeviceInfo device = io.device(root);
            devices.putIfAbsent(device.id(), device);
            rootsByDevice.computeIfAbsent(device.id(), id -> new ArrayList<>()).add(root);
        }
        List<ConfiguredDisk> disks = new ArrayList<>();
        Map<String, Integer> nameCount = new HashMap<>();
        for (DeviceInfo device : devices.values()) {
            nameCount.merge(device.name(), 1, Integer::sum);
        }
        for (Map.Entry<String, List<Path>> entry : rootsByDevice.entrySet()) {
            DeviceInfo device = devices.get(entry.getKey());
            List<Path> group = entry.getValue();
            // Devices sysfs does not know are all "unknown": the numbers tell them apart.
            String name = nameCount.get(device.name()) > 1 ? device.name() + "-" + device.major() + "-"
                + device.minor() : device.name();
            disks.add(new ConfiguredDisk(name, device, group));
            if (group.size() > 1) {
                notes.add("storage roots " + list(group) + " are on one device (" + device.name() + ", " + device.id()
                    + "): they form one disk");
            }
        }
        return new DiskLayout(disks, notes);
    }

    /** The disks, one per device, in the order their first roots were given. */
    public List<ConfiguredDisk> disks() {
        return disks;
    }

    /** What a person should know about how the roots became disks: merges and duplicates. */
    public List<String> notes() {
        return notes;
    }

    /** "/a and /b", "/a, /b and /c". */
    private static String list(List<Path> paths) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < paths.size(); i++) {
            if (i > 0) {
                text.append(i == paths.size() - 1 ? " and " : ", ");
            }
            text.append(paths.get(i));
        }
        return text.toString();
    }

    /**
     * One disk: a device and the storage roots on it.
     *
     * @param name   the device's name ({@code vda}); with the device numbers added where two
     *               devices share a name ({@code unknown-0-45})
     * @param device the device
     * @param roots  the storage roots on it, absolute, in the order given
     */
    public record ConfiguredDisk(String name, DeviceInfo device, List<Path> roots) {
        public ConfiguredDisk {
            roots = List.copyOf(roots);
        }
    }
}

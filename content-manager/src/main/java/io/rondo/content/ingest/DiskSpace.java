package io.rondo.content.ingest;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The room ingest has on the disks: the disk with the most of it, an object refused before a
 * byte of it is written where a disk it would go to has too little, and a write that found its
 * file system full told apart from other failures and said plainly.
 */
final class DiskSpace {

    private DiskSpace() {
    }

    /** The disk with the most free space. */
    static StorageDisk mostFree(List<StorageDisk> disks) {
        return disks.stream().max(Comparator.comparingLong(ContentStore::freeBytes)).orElseThrow();
    }

    /**
     * Refuses an object that the disks it would go to have no room for, before a byte of it is
     * written: {@code needed} is the bytes each of them would take.
     */
    static void checkRoom(Map<StorageDisk, Long> needed, String name) throws IngestException {
        for (Map.Entry<StorageDisk, Long> disk : needed.entrySet()) {
            if (disk.getValue() > usableBytes(disk.getKey())) {
                throw new IngestException("no space for " + name + ": it needs " + size(disk.getValue()) + " on disk "
                    + disk.getKey().name() + " (" + disk.getKey().root() + "), which has " + size(usableBytes(
                    disk.getKey())) + " free; free some space there, or add a disk to storage.roots");
            }
        }
    }

    /** Whether a write failed because its file system is full (ENOSPC, or EDQUOT: a quota is). */
    static boolean noSpaceLeft(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && (message.contains("No space left on device") || message.contains("Disk quota "
                + "exceeded"))) {
                return true;
            }
        }
        return false;
    }

    /** Why {@code name} could not be written, the disks full: "no space left to write ...: disk ... free". */
    static String noSpaceLeftFor(String name, List<StorageDisk> disks) {
        return "no space left to write " + name + ": " + String.join(", ",
            disks.stream().map(disk -> room(disk) + " free").toList());
    }

    /** A disk, and the space left on it: "disk vda (/srv/rondo) has 12.0 MiB". */
    private static String room(StorageDisk disk) {
        long usable = usableBytes(disk);
        return "disk " + disk.name() + " (" + disk.root() + ")" + (usable == Long.MAX_VALUE ? ""
            : " has " + size(usable));
    }

    /** The bytes a disk has left for files; as good as unlimited where the file system cannot say. */
    private static long usableBytes(StorageDisk disk) {
        try {
            return Files.getFileStore(disk.root()).getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String size(long bytes) {
        return bytes < (1 << 20) ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
            : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }
}

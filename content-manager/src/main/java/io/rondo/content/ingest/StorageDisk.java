package io.rondo.content.ingest;

import java.nio.file.Path;

/**
 * A disk as the content manager sees it: a name and the storage root where Rondo keeps its files
 * on it. Which roots form one disk is the server's business; here a disk is just where to write.
 *
 * @param name the disk's name (the device's, e.g. {@code vda}); stored in placements
 * @param root the storage root
 */
public record StorageDisk(String name, Path root) {

    public StorageDisk {
        if (name == null || name.isBlank() || name.contains("/")) {
            throw new IllegalArgumentException("a disk needs a name without '/', was '" + name + "'");
        }
        root = root.toAbsolutePath().normalize();
    }
}

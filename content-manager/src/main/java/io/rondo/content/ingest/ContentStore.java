package io.rondo.content.ingest;

import io.rondo.content.catalog.Catalog;
import io.rondo.content.model.StoredFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The content manager's view of storage: the catalog and the disks' storage roots, under each of
 * which Rondo keeps {@code rondo/objects/} (finished objects) and {@code rondo/tmp/} (ingests in
 * progress; emptied at start).
 */
public final class ContentStore {

    static final String FOLDER = "rondo";
    static final String OBJECTS = FOLDER + "/objects";
    static final String TMP = FOLDER + "/tmp";
    /** Where each recording in progress leaves its mark, so that the next start closes what a crash interrupted. */
    public static final String LIVE = FOLDER + "/live";

    private final Catalog catalog;
    private final List<StorageDisk> disks;

    public ContentStore(Catalog catalog, List<StorageDisk> disks) {
        if (disks.isEmpty()) {
            throw new IllegalArgumentException("the content store needs at least one disk");
        }
        if (disks.stream().map(StorageDisk::name).distinct().count() != disks.size()) {
            throw new IllegalArgumentException("two disks share a name: " + disks);
        }
        this.catalog = catalog;
        this.disks = List.copyOf(disks);
        for (StorageDisk disk : this.disks) {
            try {
                Files.createDirectories(disk.root().resolve(OBJECTS));
                Files.createDirectories(disk.root().resolve(TMP));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot prepare the storage root " + disk.root() + ": "
                    + e.getMessage(), e);
            }
        }
    }

    public Catalog catalog() {
        return catalog;
    }

    public List<StorageDisk> disks() {
        return disks;
    }

    public Optional<StorageDisk> disk(String name) {
        return disks.stream().filter(disk -> disk.name().equals(name)).findFirst();
    }

    /** Where a stored file is on its disk. */
    public Path pathOf(StoredFile file) {
        StorageDisk disk = disk(file.disk()).orElseThrow(() -> new IllegalStateException(
            "the catalog places a file on disk '" + file.disk() + "', which is not configured; configured: "
                + disks.stream().map(StorageDisk::name).toList()));
        return disk.root().resolve(file.path());
    }

    /** The folder, relative to its disk's root, that holds the files of object {@code id}. */
    public static String objectFolder(long id) {
        return OBJECTS + "/" + id;
    }

    /** Usable free bytes on a disk. */
    public static long freeBytes(StorageDisk disk) {
        try {
            return Files.getFileStore(disk.root()).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }
}

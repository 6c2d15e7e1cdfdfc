package io.rondo.server.content;

import io.rondo.content.catalog.ChronicleCatalog;
import io.rondo.content.ingest.ContentStore;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.IngestService;
import io.rondo.content.ingest.StorageDisk;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.DiskLayout;
import io.rondo.server.config.RondoConfig;

import java.time.Clock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The media library as the server and the commands open it: the storage roots grouped into disks
 * (one storage root per disk is used for objects: the first of each device), the catalog in the
 * first root's {@code rondo/catalog}, and the ingest service and directory over them. Opening it
 * cleans up after any ingest a crash interrupted.
 */
public final class Library implements AutoCloseable {

    private final ChronicleCatalog catalog;
    private final ContentStore store;
    private final IngestService ingest;
    private final Directory directory;
    private final List<String> notes;
    private final Path dataFolder;

    private Library(ChronicleCatalog catalog, ContentStore store, IngestService ingest, Directory directory,
                    List<String> notes, Path dataFolder) {
        this.catalog = catalog;
        this.store = store;
        this.ingest = ingest;
        this.directory = directory;
        this.notes = notes;
        this.dataFolder = dataFolder;
    }

    /**
     * Opens the library of the configured storage roots, or of {@code dataOverride} alone when
     * given, dating what it records (objects stored, the catalog's recovery) by {@code clock}.
     * Roots are created when missing.
     */
    public static Library open(RondoConfig config, Path dataOverride, Clock clock) throws IOException {
        List<Path> roots = dataOverride != null ? List.of(dataOverride) : config.storageRoots();
        for (Path root : roots) {
            if (Files.exists(root) && !Files.isDirectory(root)) {
                throw new IllegalArgumentException("the storage root " + root + " is a file, not a folder");
            }
            Files.createDirectories(root);
        }
        DiskLayout layout = DiskLayout.of(roots, DiskIo.best());
        List<StorageDisk> disks = new ArrayList<>();
        for (DiskLayout.ConfiguredDisk disk : layout.disks()) {
            disks.add(new StorageDisk(disk.name(), disk.roots().get(0)));
        }
        List<String> notes = new ArrayList<>(layout.notes());
        Path dataFolder = roots.get(0).toAbsolutePath().normalize();
        ChronicleCatalog catalog = ChronicleCatalog.open(dataFolder.resolve("rondo"), clock);
        try {
            ContentStore store = new ContentStore(catalog, disks);
            IngestService ingest = new IngestService(store, config.placement(),
                config.roundMs() * 1_000_000L, clock);
            int removed = ingest.recover();
            if (removed > 0) {
                notes.add("removed " + removed + " file" + (removed == 1 ? "" : "s")
                    + " of ingests a crash interrupted");
            }
            return new Library(catalog, store, ingest, new Directory(store, clock), notes, dataFolder);
        } catch (IOException | RuntimeException e) {
            catalog.close();
            throw e;
        }
    }

    /**
     * Opens the library of a configuration file ({@code config/rondo.yaml} when null; its defaults
     * when that is missing), or of {@code dataOverride} alone when given.
     */
    public static Library open(Path configFile, Path dataOverride, Clock clock) throws IOException {
        RondoConfig config = configFile == null ? RondoConfig.loadOrDefaults(RondoConfig.defaultFile())
            : RondoConfig.load(configFile);
        return open(config, dataOverride, clock);
    }

    public ContentStore store() {
        return store;
    }

    public IngestService ingest() {
        return ingest;
    }

    public Directory directory() {
        return directory;
    }

    /** What opening the library found worth saying: merged roots, crash clean-up. */
    public List<String> notes() {
        return notes;
    }

    /** The folder holding the catalog: the first storage root. */
    public Path dataFolder() {
        return dataFolder;
    }

    @Override
    public void close() {
        catalog.close();
    }
}

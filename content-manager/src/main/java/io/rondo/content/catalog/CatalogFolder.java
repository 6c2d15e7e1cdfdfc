package io.rondo.content.catalog;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

/**
 * The folder of a catalog and the small files beside its maps. A lock file keeps a second process
 * (or a second open in this JVM) out, since Chronicle Map's own locks live in the mapped file and
 * are not released when a process dies. The schema file says which layout the entries have. The
 * clean-close mark is there only between a close and the next open: an open that does not find
 * it knows the last process died with the maps open, maybe holding a segment lock or halfway
 * through an entry, and recovers them.
 */
final class CatalogFolder implements AutoCloseable {

    static final String SCHEMA_FILE = "schema.properties";
    static final String LOCK_FILE = "lock";
    static final String CLEAN_MARK = "closed-cleanly";

    private static final String FORMAT = "rondo-catalog";

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private CatalogFolder(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * Creates the folder if needed and takes its lock.
     *
     * @throws IllegalStateException if another process or another open catalog holds it
     */
    static CatalogFolder lock(Path path) {
        try {
            Files.createDirectories(path);
            FileChannel channel = FileChannel.open(path.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("the catalog in " + path + " is open already, in this process or "
                    + "another: close it there first (one process at a time may hold a catalog)");
            }
            return new CatalogFolder(path, channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the catalog in " + path, e);
        }
    }

    Path path() {
        return path;
    }

    /**
     * Checks that the folder's schema version is {@code expected}, or writes the schema file of a
     * new catalog (one with no map yet).
     *
     * @throws IllegalStateException if the folder holds another version, or maps without a schema file
     */
    void checkOrWriteSchema(int expected, boolean hasMaps) {
        Path file = path.resolve(SCHEMA_FILE);
        try {
            if (!Files.exists(file)) {
                if (hasMaps) {
                    throw new IllegalStateException("the catalog in " + path + " has maps but no " + SCHEMA_FILE
                        + ", so which schema version its entries have is unknown; expected version " + expected
                        + ". Restore " + SCHEMA_FILE + " from a backup, or move " + path
                        + " aside and ingest the media again to rebuild the catalog");
                }
                writeSchema(file, expected);
                return;
            }
            Properties schema = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                schema.load(in);
            }
            String version = schema.getProperty("version", "").trim();
            if (!FORMAT.equals(schema.getProperty("format")) || !version.matches("[0-9]{1,9}")) {
                throw new IllegalStateException(file + " is not the schema file of a Rondo catalog (it needs "
                    + "format=" + FORMAT + " and a version number); expected schema version " + expected);
            }
            int found = Integer.parseInt(version);
            if (found != expected) {
                throw new IllegalStateException("the catalog in " + path + " has schema version " + found
                    + ", but this Rondo reads schema version " + expected + ". Run the Rondo release that wrote it"
                    + (found > expected ? " (a newer one)" : "") + ", or move " + path
                    + " aside and ingest the media again to rebuild the catalog");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
    }

    /** Whether the last process to open the catalog closed it: there is nothing to recover. */
    boolean wasClosedCleanly() {
        return Files.exists(path.resolve(CLEAN_MARK));
    }

    /** Removes the clean-close mark, durably, before the maps are opened for writing. */
    void markOpen() {
        try {
            if (Files.deleteIfExists(path.resolve(CLEAN_MARK))) {
                forceFolder();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + path.resolve(CLEAN_MARK), e);
        }
    }

    /** Leaves the clean-close mark, durably, once the maps are closed. */
    void markClosedCleanly() {
        Path mark = path.resolve(CLEAN_MARK);
        try (FileChannel channel = FileChannel.open(mark, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            channel.force(true);
            forceFolder();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + mark, e);
        }
    }

    /** Releases the lock. */
    @Override
    public void close() {
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the lock of the catalog in " + path, e);
        }
    }

    private void writeSchema(Path file, int version) throws IOException {
        Path temp = path.resolve(SCHEMA_FILE + ".tmp");
        String text = "# The layout of this Rondo catalog's entries. Rondo refuses to open a catalog of another\n"
            + "# version rather than misread it.\n"
            + "format=" + FORMAT + "\n"
            + "version=" + version + "\n";
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            channel.write(StandardCharsets.UTF_8.encode(text));
            channel.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        forceFolder();
    }

    private void forceFolder() throws IOException {
        try (FileChannel folder = FileChannel.open(path, StandardOpenOption.READ)) {
            folder.force(true);
        }
    }
}

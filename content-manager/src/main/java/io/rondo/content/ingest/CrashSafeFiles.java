package io.rondo.content.ingest;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file moves that make ingest crash-safe: a file forced under {@code rondo/tmp/} is renamed
 * into {@code rondo/objects/} and its folder forced; after a crash, what is left under
 * {@code rondo/tmp/} and whatever under {@code rondo/objects/} no catalog entry names is removed.
 */
final class CrashSafeFiles {

    private CrashSafeFiles() {
    }

    /** Tells which files or folders to remove. */
    interface PathTest {

        /** Whether {@code path} is to be removed. */
        boolean matches(Path path) throws IOException;
    }

    /** Renames a forced temp file into place, atomically where the file system can, and forces its folder. */
    static void moveIntoPlace(Path temp, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target);
        }
        try (FileChannel folder = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            folder.force(true);
        } catch (IOException e) {
            // Some file systems cannot open a folder to force it; the rename is then as durable as they make it.
            return;
        }
    }

    /**
     * Removes each entry of {@code folder} that {@code test} matches, with everything under it;
     * returns how many files and folders it removed.
     */
    static int deleteAll(Path folder, PathTest test) throws IOException {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                if (test.matches(entry)) {
                    removed += deleteTree(entry);
                }
            }
        }
        return removed;
    }

    private static int deleteTree(Path path) throws IOException {
        int removed = 0;
        if (Files.isDirectory(path)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
                for (Path entry : entries) {
                    removed += deleteTree(entry);
                }
            }
        }
        Files.delete(path);
        return removed + 1;
    }

    /** The object id a file or folder under {@code rondo/objects/} belongs to, or -1 for a stranger. */
    static long idOf(Path path) {
        String file = path.getFileName().toString();
        int dot = file.indexOf('.');
        try {
            return Long.parseLong(dot < 0 ? file : file.substring(0, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

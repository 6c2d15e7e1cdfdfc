package io.rondo.benchmarks.rig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** The work folder's data folders, made afresh: a folder deleted whole, or copied whole. */
public final class Folders {

    private Folders() {
    }

    /** Deletes {@code root} and everything under it, if it exists. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /**
     * Copies a data folder whole, so that a second server can open its own catalog. The copy is made
     * afresh: whatever was at {@code to} goes first.
     *
     * @return {@code to}
     */
    public static Path copyTree(Path from, Path to) throws IOException {
        deleteTree(to);
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }
}

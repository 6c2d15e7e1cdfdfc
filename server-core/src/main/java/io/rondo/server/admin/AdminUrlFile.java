package io.rondo.server.admin;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Where a running server's admin API is, for the command line: {@code rondo serve} writes its
 * admin port's URL to {@code DATA/rondo/admin.url} once it listens and removes the file when it
 * stops cleanly, so {@code rondo ingest}, {@code ls}, {@code mv} and {@code rm}, refused the
 * catalog a server holds, go through that server instead. A server killed without stopping
 * leaves the file behind; the catalog's lock, free again, says that no server holds the library.
 */
public final class AdminUrlFile {

    /** The file, relative to the data folder (the first storage root). */
    public static final String NAME = "rondo/admin.url";

    private AdminUrlFile() {
    }

    /**
     * Writes {@code url} to the data folder's file, aside and renamed, so a reader never sees half of it.
     *
     * @throws IOException if the file cannot be written
     */
    public static void write(Path dataFolder, String url) throws IOException {
        Path file = dataFolder.resolve(NAME);
        Path aside = file.resolveSibling("admin.url.tmp");
        Files.createDirectories(file.getParent());
        Files.writeString(aside, url + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Removes the data folder's file if it is there. */
    public static void delete(Path dataFolder) throws IOException {
        Files.deleteIfExists(dataFolder.resolve(NAME));
    }

    /**
     * The admin URL the data folder's file holds, or empty if there is none (no server has it open,
     * or one that predates the file).
     *
     * @throws IOException if the file is there but cannot be read
     */
    public static Optional<URI> read(Path dataFolder) throws IOException {
        String text;
        try {
            text = Files.readString(dataFolder.resolve(NAME), StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            return text.isEmpty() ? Optional.empty() : Optional.of(URI.create(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}

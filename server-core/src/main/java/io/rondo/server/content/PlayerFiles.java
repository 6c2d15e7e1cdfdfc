package io.rondo.server.content;

import io.rondo.content.ingest.IngestException;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.ingest.IngestService;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.MediaObject;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The bundled web player as discrete data in the library (papers/001 Section 6: the player is
 * fetched from the server like any document): its files, shipped in {@code client-applet}, are
 * ingested under {@link #FOLDER} when the server starts, and ingested again whenever the shipped
 * bytes differ from the stored ones (a newer Rondo, or a file someone removed). They are then
 * read through the disks' schedulers, cached, and answered with ETags and ranges like every
 * other object.
 */
public final class PlayerFiles {

    /** Where the player lives; names under it are Rondo's own. */
    public static final String FOLDER = "/player/";
    /** The player's page. */
    public static final String PAGE = FOLDER + "index.html";

    private static final String RESOURCES = "/io/rondo/client/player/";

    private PlayerFiles() {
    }

    /** True if {@code name} lies in the player's folder, which only Rondo writes. */
    public static boolean reserved(String name) {
        return ObjectNames.normalize(name).startsWith(FOLDER);
    }

    /**
     * Brings the library's copy of the player up to date with the shipped one; returns the names
     * it (re)installed, empty when all were current.
     */
    public static List<String> install(Library library) throws IOException {
        List<String> installed = new ArrayList<>();
        Path scratch = Files.createTempDirectory("rondo-player");
        try {
            for (String file : manifest()) {
                byte[] bytes = resource(file);
                String name = FOLDER + file;
                Optional<MediaObject> stored = library.store().catalog().byName(name);
                if (stored.isPresent() && stored.get().etag().equals(IngestService.etagOf(bytes))) {
                    continue;
                }
                if (stored.isPresent()) {
                    library.directory().delete(name);
                }
                Path copy = Files.write(scratch.resolve(file), bytes);
                try {
                    library.ingest().ingest(new IngestRequest(copy, name, null, 0), copied -> { });
                } catch (IngestException e) {
                    throw new IllegalStateException("the player's " + file + " was refused: " + e.getMessage(), e);
                } finally {
                    Files.deleteIfExists(copy);
                }
                installed.add(name);
            }
        } finally {
            Files.deleteIfExists(scratch);
        }
        return installed;
    }

    /** The player's files, as the shipped manifest lists them. */
    static List<String> manifest() throws IOException {
        return new String(resource("files.txt"), StandardCharsets.UTF_8).lines().map(String::strip)
            .filter(file -> !file.isEmpty() && !file.startsWith("#")).toList();
    }

    private static byte[] resource(String file) throws IOException {
        try (InputStream in = PlayerFiles.class.getResourceAsStream(RESOURCES + file)) {
            if (in == null) {
                throw new IllegalStateException("the player's " + file + " is missing from the classpath");
            }
            return in.readAllBytes();
        }
    }
}

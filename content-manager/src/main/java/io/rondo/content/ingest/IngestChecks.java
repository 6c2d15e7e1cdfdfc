package io.rondo.content.ingest;

import io.rondo.content.catalog.Catalog;
import io.rondo.content.model.MediaObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What ingest checks before it writes anything: a source it can read and that holds something,
 * and a name that is well formed and that no object in the catalog holds or clashes with.
 */
final class IngestChecks {

    private IngestChecks() {
    }

    /**
     * The size of {@code source}.
     *
     * @throws IngestException if it is missing, not a regular file, unreadable or empty
     */
    static long readableSize(Path source) throws IngestException, IOException {
        if (!Files.exists(source)) {
            throw new IngestException(source + " does not exist");
        }
        if (!Files.isRegularFile(source)) {
            throw new IngestException(source + " is not a regular file");
        }
        if (!Files.isReadable(source)) {
            throw new IngestException(source + " cannot be read (permission denied)");
        }
        long size = Files.size(source);
        if (size == 0) {
            throw new IngestException(source + " is empty: there is nothing to serve");
        }
        return size;
    }

    /**
     * The name {@code request} is to be stored under, normalized: the one it asks for, else its
     * source's file name.
     *
     * @throws IngestException if the name is malformed, taken, or clashes with another in {@code catalog}
     */
    static String freeName(Catalog catalog, IngestRequest request) throws IngestException {
        Path source = request.source();
        String name;
        try {
            name = ObjectNames.normalize(request.name() == null ? source.getFileName().toString() : request.name());
        } catch (IllegalArgumentException e) {
            throw new IngestException(e.getMessage(), e);
        }
        Optional<MediaObject> existing = catalog.byName(name);
        if (existing.isPresent()) {
            throw new IngestException("an object named " + name + " already exists (id " + existing.get().id()
                + "); remove it first, or ingest under another name with --as");
        }
        String clash = ObjectNames.clash(catalog, name);
        if (clash != null) {
            throw new IngestException(clash + "; ingest under another name with --as");
        }
        return name;
    }
}

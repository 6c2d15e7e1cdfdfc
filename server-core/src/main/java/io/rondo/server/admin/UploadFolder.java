package io.rondo.server.admin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code rondo/uploads/} under the library's data folder: where uploads are written until they are
 * ingested. What a crash left there is removed when the folder is opened at the next start.
 */
final class UploadFolder {

    /** Where uploads are written until they are ingested, under the data folder. */
    static final String PATH = "rondo/uploads";

    private static final Logger LOG = LoggerFactory.getLogger(UploadFolder.class);

    private UploadFolder() {
    }

    /**
     * The uploads folder of {@code dataFolder}, made if missing and emptied of what a crash left.
     *
     * @throws IOException if it cannot be made or emptied
     */
    static Path open(Path dataFolder) throws IOException {
        Path folder = dataFolder.resolve(PATH);
        Files.createDirectories(folder);
        int removed = 0;
        try (DirectoryStream<Path> left = Files.newDirectoryStream(folder)) {
            for (Path file : left) {
                Files.deleteIfExists(file);
                removed++;
            }
        }
        if (removed > 0) {
            LOG.info("removed {} upload{} a crash interrupted from {}", removed, removed == 1 ? "" : "s", folder);
        }
        return folder;
    }
}

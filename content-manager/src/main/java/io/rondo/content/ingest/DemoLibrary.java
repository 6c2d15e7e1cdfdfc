package io.rondo.content.ingest;

import io.rondo.content.catalog.Catalog;
import io.rondo.content.model.MediaObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The small library a first start installs into an empty data folder, so there is something real
 * to browse and play at once: a page, a text, a picture, a WebM clip (VP9, Opus) and a fragmented
 * MP4 clip (H.264, AAC). The files ship inside Rondo ({@code io/rondo/content/demo/}, with the
 * commands that made them) and go in through the ordinary ingest.
 */
public final class DemoLibrary {

    private static final String FOLDER = "/io/rondo/content/demo/";

    private DemoLibrary() {
    }

    /** Installs the demo library if the catalog is empty; returns what it installed (nothing otherwise). */
    public static List<MediaObject> installIfEmpty(Catalog catalog, IngestService ingest) throws IOException {
        if (catalog.size() > 0) {
            return List.of();
        }
        Path scratch = Files.createTempDirectory("rondo-demo");
        List<MediaObject> installed = new ArrayList<>();
        try {
            for (String[] entry : manifest()) {
                Path file = scratch.resolve(entry[0]);
                try (InputStream in = resource(entry[0])) {
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                }
                try {
                    installed.add(ingest.ingest(new IngestRequest(file, entry[1], null, 0), copied -> { }));
                } catch (IngestException e) {
                    throw new IllegalStateException("the demo library's " + entry[0] + " was refused: "
                        + e.getMessage(), e);
                }
            }
        } finally {
            try (var files = Files.list(scratch)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(scratch);
        }
        return installed;
    }

    private static List<String[]> manifest() throws IOException {
        List<String[]> entries = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(resource("library.txt"),
            StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    entries.add(line.trim().split("\\s+", 2));
                }
            }
        }
        return entries;
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = DemoLibrary.class.getResourceAsStream(FOLDER + name);
        if (in == null) {
            throw new IOException("the demo library's " + name + " is missing from Rondo's jar");
        }
        return in;
    }
}

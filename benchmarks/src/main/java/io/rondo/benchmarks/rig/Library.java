package io.rondo.benchmarks.rig;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rondo's library for a run: the file set (and the clip, if streams play) ingested with {@code
 * rondo ingest} into a data folder named after them, kept for the next run with the same files. A
 * folder whose ingest did not finish is made again from scratch.
 */
public final class Library {

    private static final String DONE = "bench-ingested.txt";

    private Library() {
    }

    /**
     * The data folder holding {@code set} and {@code clip} (null for none), ingested if needed.
     *
     * @param work the bench's work folder
     * @param progress where a line says that the ingest runs
     */
    public static Path prepare(Path work, FileSet set, Path clip, PrintWriter progress) throws IOException {
        String name = "rondo-" + set.folder().getFileName() + (clip == null ? "" : "-" + stem(clip));
        Path data = work.resolve(name);
        Path done = data.resolve(DONE);
        List<Path> files = new ArrayList<>(set.paths());
        if (clip != null) {
            files.add(clip);
        }
        String identity = String.join("\n", files.stream().map(path -> path.getFileName().toString()).toList());
        if (Files.isRegularFile(done) && Files.readString(done, StandardCharsets.UTF_8).equals(identity)) {
            return data;
        }
        Folders.deleteTree(data);
        Files.createDirectories(data);
        progress.printf("bench: ingesting %d files into %s (rondo ingest)%n", files.size(), data);
        progress.flush();
        RondoCheckout.ingest(data, files, work.resolve("rondo-ingest.log"));
        Files.writeString(done, identity, StandardCharsets.UTF_8);
        return data;
    }

    private static String stem(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}

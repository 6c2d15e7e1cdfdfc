package io.rondo.content.media;

import io.rondo.content.remux.MediaIndexers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** What every index must satisfy, and a way to index bytes. */
public final class IndexChecks {

    public static final long SECOND = 1_000_000_000L;
    public static final long MS = 1_000_000L;

    private IndexChecks() {
    }

    /** A committed test clip, by its name in src/test/resources/media/ (its README says how each was made). */
    public static Path clip(String name) {
        try {
            return Path.of(IndexChecks.class.getResource("/media/" + name).toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The init segment starts the file; the fragments follow it in order, each starting where and
     * when the previous one ends, the last ending at the end of the file and of the media.
     */
    public static void assertWellFormed(MediaIndex index, long fileSize) {
        assertFalse(index.fragments().isEmpty(), "an index has fragments");
        assertEquals(0, index.init().offset(), "the init segment starts the file");
        assertTrue(index.init().length() > 0, "the init segment holds the headers");
        long offset = index.init().end();
        long time = index.fragments().get(0).startNs();
        for (Fragment f : index.fragments()) {
            assertEquals(offset, f.offset(), "fragments are contiguous in the file: " + f);
            assertEquals(time, f.startNs(), "each fragment starts when the one before ends: " + f);
            assertEquals(-1, f.file(), "the indexer does not place fragments");
            offset = f.offset() + f.length();
            time = f.startNs() + f.durationNs();
        }
        assertEquals(fileSize, offset, "the fragments cover the file to its end");
        assertEquals(index.durationNs(), time, "the last fragment ends with the media");
    }

    /** Writes {@code bytes} to {@code dir/name} and prepares it with rounds of {@code roundNs}. */
    static Optional<MediaIndex> index(Path dir, String name, byte[] bytes, long roundNs) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        Preparation prepared = MediaIndexers.prepare(file, roundNs);
        if (prepared instanceof Preparation.Continuous continuous) {
            try (StoredMedia media = continuous.media()) {
                return Optional.of(media.index());
            }
        }
        return Optional.empty();
    }
}

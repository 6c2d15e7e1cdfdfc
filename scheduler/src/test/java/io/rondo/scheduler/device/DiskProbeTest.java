package io.rondo.scheduler.device;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The doctor's probe: it tries for real, says what failed, and leaves nothing behind. */
class DiskProbeTest {

    @TempDir
    Path dir;

    /** On the temporary folder's file system O_DIRECT works; FIEMAP works exactly when the reader asks for it. */
    @Test
    void findsWhatTheProcessReaderOffersAndCleansUp() throws IOException {
        DiskIo io = DiskIo.best();

        DiskProbe.Result result = DiskProbe.probe(io, dir);

        assertTrue(result.directIo(), "O_DIRECT on " + dir + ": " + result.directProblem());
        assertEquals(io.physicalPositions(), result.fiemap(), "FIEMAP: " + result.fiemapProblem());
        assertEmpty(dir);
    }

    /** The Java reader never asks FIEMAP, and says so rather than claim it failed. */
    @Test
    void theJavaReaderReportsNoFiemap() throws IOException {
        DiskProbe.Result result = DiskProbe.probe(new JavaDiskIo("test"), dir);

        assertTrue(result.directIo(), result.directProblem());
        assertFalse(result.fiemap());
        assertTrue(result.fiemapProblem().contains("logical offsets stand in"), result.fiemapProblem());
        assertEmpty(dir);
    }

    /** A folder that cannot be written to is reported, not thrown. */
    @Test
    void aMissingFolderIsAProblemNotAnException() {
        DiskProbe.Result result = DiskProbe.probe(DiskIo.best(), dir.resolve("missing"));

        assertFalse(result.directIo());
        assertTrue(result.directProblem().startsWith("cannot write a test file in " + dir.resolve("missing")),
            result.directProblem());
    }

    static void assertEmpty(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count(), "no test file left in " + dir);
        }
    }
}

package io.rondo.benchmarks.rig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The discrete workload's files: the same seed makes the same files, sized as asked. */
class FileSetTest {

    @Test
    void sizesFollowTheNormalDistributionAskedFor(@TempDir Path folder) throws Exception {
        FileSet set = FileSet.make(folder, 300, 50_000, 25_000, 20261123);
        assertEquals(300, set.count());
        assertEquals("f000.bin", set.names().get(0));
        assertEquals("f299.bin", set.names().get(299));
        double mean = Arrays.stream(set.sizes()).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(set.sizes()).mapToDouble(s -> (s - mean) * (s - mean)).sum() / 299);
        // 300 draws: the mean within 3 standard errors (25,000 / sqrt(300) = 1,443), the sd within 15 %.
        assertTrue(Math.abs(mean - 50_000) < 4_400, "mean " + mean);
        assertTrue(Math.abs(sd - 25_000) < 3_750, "sd " + sd);
        assertTrue(Arrays.stream(set.sizes()).allMatch(s -> s >= FileSet.MIN_BYTES));
        assertTrue(Arrays.stream(set.sizes()).anyMatch(s -> s > 64 * 1024), "some files are over 64 KiB");
        for (int i = 0; i < set.count(); i++) {
            assertEquals(set.sizes()[i], Files.size(set.path(i)));
        }
        assertEquals(Arrays.stream(set.sizes()).sum(), set.totalBytes());
    }

    @Test
    void theSameSeedMakesTheSameBytesAndAFinishedSetIsKept(@TempDir Path folder) throws Exception {
        FileSet first = FileSet.make(folder.resolve("a"), 5, 10_000, 3_000, 9);
        FileSet again = FileSet.make(folder.resolve("b"), 5, 10_000, 3_000, 9);
        FileSet other = FileSet.make(folder.resolve("c"), 5, 10_000, 3_000, 10);
        assertArrayEquals(first.sizes(), again.sizes());
        assertArrayEquals(Files.readAllBytes(first.path(3)), Files.readAllBytes(again.path(3)));
        assertNotEquals(Arrays.toString(first.sizes()), Arrays.toString(other.sizes()));

        FileTime made = Files.getLastModifiedTime(first.path(0));
        Files.setLastModifiedTime(first.path(0), FileTime.fromMillis(made.toMillis() - 60_000));
        FileTime aged = Files.getLastModifiedTime(first.path(0));
        FileSet.make(folder.resolve("a"), 5, 10_000, 3_000, 9);
        assertEquals(aged, Files.getLastModifiedTime(first.path(0)), "a complete set is not written again");

        Files.write(first.path(1), new byte[] {1, 2, 3});
        FileSet.make(folder.resolve("a"), 5, 10_000, 3_000, 9);
        assertEquals(first.sizes()[1], Files.size(first.path(1)), "a damaged set is made again");
    }

    @Test
    void aSetNeedsFilesOfAPositiveSize(@TempDir Path folder) {
        assertThrows(IllegalArgumentException.class, () -> FileSet.make(folder, 0, 10, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> FileSet.make(folder, 3, 0, 1, 1));
    }
}

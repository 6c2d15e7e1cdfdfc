package io.rondo.scheduler.device;

import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Tries, for real, what Rondo asks of a storage root: a small file is written there, opened with
 * the process's {@link DiskIo}, 4096 bytes are read back with O_DIRECT and compared, and FIEMAP is
 * asked where the file lies; then the file is deleted. A reader that claims O_DIRECT can still meet
 * a file system that refuses it (tmpfs, some FUSE and network file systems), and FIEMAP is the file
 * system's to give or not: only trying tells. This is what {@code rondo doctor} reports.
 */
public final class DiskProbe {

    /** The size of the test file. */
    public static final int TEST_FILE_BYTES = 1 << 20;

    private DiskProbe() {
    }

    /** Tries O_DIRECT and FIEMAP in {@code root}, which must be a directory; never throws for what it finds. */
    public static Result probe(DiskIo io, Path root) {
        Path file;
        try {
            file = Files.createTempFile(root, ".rondo-doctor-", ".tmp");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            String problem = "cannot write a test file in " + root + ": " + describe(e);
            return new Result(root, problem, problem);
        }
        try {
            return probe(io, root, file);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // The result stands; the file is hidden and small, and the message says where it is.
                LoggerFactory.getLogger(DiskProbe.class).warn("cannot delete the test file {}: {}", file,
                    e.getMessage());
            }
        }
    }

    private static Result probe(DiskIo io, Path root, Path file) {
        try {
            write(file);
        } catch (IOException e) {
            String problem = "cannot write a test file in " + root + ": " + describe(e);
            return new Result(root, problem, problem);
        }
        String directProblem;
        String fiemapProblem;
        try (OpenFile open = io.open(file)) {
            directProblem = readBack(open);
            fiemapProblem = io.physicalPositions() ? fiemap(open)
                : "the " + io.kind() + " reader does not ask FIEMAP: logical offsets stand in for positions";
        } catch (IOException | RuntimeException e) {
            String problem = "cannot open a test file in " + root + " for O_DIRECT reads: " + describe(e);
            return new Result(root, problem, problem);
        }
        return new Result(root, directProblem, fiemapProblem);
    }

    private static void write(Path file) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocateDirect(TEST_FILE_BYTES);
        for (int i = 0; i < TEST_FILE_BYTES; i += Long.BYTES) {
            bytes.putLong(i, pattern(i));
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
    }

    /** Null if an O_DIRECT read of the first block works and returns what was written. */
    private static String readBack(OpenFile open) throws IOException {
        if (open instanceof JavaOpenFile java && !java.direct()) {
            return "the file system refuses O_DIRECT: reads would go through the page cache";
        }
        ByteBuffer block = AlignedBuffers.allocate(DiskIo.ALIGNMENT);
        int read = open.readAligned(0, block);
        if (read != DiskIo.ALIGNMENT) {
            return "an O_DIRECT read of " + DiskIo.ALIGNMENT + " bytes returned " + read;
        }
        for (int i = 0; i < DiskIo.ALIGNMENT; i += Long.BYTES) {
            if (block.getLong(i) != pattern(i)) {
                return "an O_DIRECT read returned other bytes than were written (at offset " + i + ")";
            }
        }
        return null;
    }

    /** Null if FIEMAP maps the file's first byte to a place on the device. */
    private static String fiemap(OpenFile open) {
        try {
            List<OpenFile.Extent> extents = open.extents();
            if (extents.isEmpty()) {
                return "FIEMAP reports no extents for a file of " + TEST_FILE_BYTES + " bytes";
            }
            open.physicalPosition(0);
            return null;
        } catch (IOException | RuntimeException e) {
            return describe(e);
        }
    }

    private static long pattern(long offset) {
        return offset * 0x9E3779B97F4A7C15L;
    }

    private static String describe(Exception e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * What one root offers.
     *
     * @param root          the storage root tried
     * @param directProblem why an O_DIRECT read failed, or null if it worked
     * @param fiemapProblem why FIEMAP gave no physical position, or null if it did
     */
    public record Result(Path root, String directProblem, String fiemapProblem) {

        /** Whether a 4096-byte O_DIRECT read worked and returned the bytes written. */
        public boolean directIo() {
            return directProblem == null;
        }

        /** Whether FIEMAP gave the physical position of the file's first byte. */
        public boolean fiemap() {
            return fiemapProblem == null;
        }
    }
}

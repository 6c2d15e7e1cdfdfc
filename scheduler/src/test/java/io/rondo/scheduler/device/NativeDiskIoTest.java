package io.rondo.scheduler.device;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JNI reader: the {@link OpenFileContract}, FIEMAP's extents, and the C code's own argument
 * checks (called directly, as a caller that skipped the Java checks would). Skipped, with the
 * reason, where the library did not load (a build with {@code -Dnative.skip}).
 */
class NativeDiskIoTest extends OpenFileContract {

    private static final String REFUSES = "the file system refuses O_DIRECT";

    /** The native reader, if it loaded and the temporary folder's file system takes O_DIRECT. */
    static NativeDiskIo loadedReader(Path probe) {
        String failure = NativeDiskIo.loadFailure();
        assumeTrue(failure == null, "the native disk reader did not load: " + failure);
        NativeDiskIo reader = new NativeDiskIo();
        try (OpenFile file = reader.open(probe)) {
            assertEquals(Files.size(probe), file.size());
        } catch (IOException e) {
            assertMessage(e, REFUSES, probe.toString(), "Invalid argument");
            Assumptions.abort("java.io.tmpdir is on a file system that refuses O_DIRECT: " + e.getMessage());
        }
        return reader;
    }

    @Override
    DiskIo reader() {
        return loadedReader(data);
    }

    @Test
    void saysWhatItIs() {
        assertEquals("native", reader.kind());
        assertNull(reader.fallbackReason());
        assertTrue(reader.directIo());
        assertTrue(reader.physicalPositions());
    }

    @Test
    void extentsAreOrderedDisjointAndCoverTheFile() throws IOException {
        OpenFile file = open(data);
        List<OpenFile.Extent> extents = file.extents();
        assertFalse(extents.isEmpty(), "an 8 MiB file has extents");
        assertEquals(0, extents.get(0).logical(), "the first extent starts the file");
        for (int i = 1; i < extents.size(); i++) {
            OpenFile.Extent before = extents.get(i - 1);
            OpenFile.Extent extent = extents.get(i);
            assertEquals(before.logical() + before.length(), extent.logical(),
                "extent " + i + " follows the one before it, without a gap or overlap: " + extents);
        }
        OpenFile.Extent last = extents.get(extents.size() - 1);
        assertTrue(last.logical() + last.length() >= FILE_SIZE, "the extents cover the file: " + extents);
        assertTrue((last.flags() & AbstractOpenFile.EXTENT_LAST) != 0, "the last extent says so");
        for (OpenFile.Extent extent : extents) {
            assertTrue(extent.length() > 0, "no empty extents");
            assertEquals(0, extent.flags() & AbstractOpenFile.EXTENT_UNKNOWN, "FIEMAP_FLAG_SYNC placed every extent");
            long first = file.physicalPosition(extent.logical());
            assertEquals(extent.physical(), first);
            long previous = first;
            for (long offset = extent.logical() + 1; offset < Math.min(FILE_SIZE, extent.logical() + extent.length());
                 offset += 65_537) {
                long position = file.physicalPosition(offset);
                assertTrue(position > previous, "positions grow within an extent");
                assertEquals(first + (offset - extent.logical()), position);
                previous = position;
            }
        }
        assertSame(extents, file.extents(), "the extents are cached while the file does not change");
    }

    /** More extents than one FIEMAP call returns (256), and holes between them. */
    @Test
    void aSparseFileWithManyExtentsIsMappedWhole() throws IOException {
        Path sparse = dir.resolve("sparse.bin");
        int blocks = 600;
        ByteBuffer block = ByteBuffer.allocate(DiskIo.ALIGNMENT);
        try (FileChannel channel = FileChannel.open(sparse, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            for (int i = 0; i < blocks; i++) {
                block.clear().put(0, (byte) i);
                channel.write(block, 2L * i * DiskIo.ALIGNMENT);
            }
            channel.force(true);
        }
        OpenFile file = open(sparse);
        List<OpenFile.Extent> extents = file.extents();
        assertEquals(blocks, extents.size(), "one extent per written block");
        for (int i = 0; i < blocks; i++) {
            assertEquals(2L * i * DiskIo.ALIGNMENT, extents.get(i).logical());
            assertEquals(DiskIo.ALIGNMENT, extents.get(i).length());
        }
        assertEquals(extents.get(300).physical() + 7, file.physicalPosition(2L * 300 * DiskIo.ALIGNMENT + 7));
        IOException hole = assertThrows(IOException.class, () -> file.physicalPosition(DiskIo.ALIGNMENT + 5));
        assertMessage(hole, "hole", sparse.toString(), "offset 4101");
        assertSameBytes(sparse, 0, 3 * DiskIo.ALIGNMENT, file.read(0, 3 * DiskIo.ALIGNMENT,
            AlignedBuffers.allocate(3 * DiskIo.ALIGNMENT)), "read across a hole");
    }

    @Test
    void extentsAreFetchedAgainWhenTheFileGrows() throws IOException {
        Path growing = dir.resolve("growing.bin");
        write(growing, 2 * DiskIo.ALIGNMENT, 3);
        OpenFile file = open(growing);
        List<OpenFile.Extent> before = file.extents();
        assertThrows(IOException.class, () -> file.physicalPosition(3 * DiskIo.ALIGNMENT));
        try (FileChannel channel = FileChannel.open(growing, StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.allocate(2 * DiskIo.ALIGNMENT));
            channel.force(true);
        }
        List<OpenFile.Extent> after = file.extents();
        assertNotEquals(before, after);
        OpenFile.Extent last = after.get(after.size() - 1);
        assertTrue(last.logical() + last.length() >= 4 * DiskIo.ALIGNMENT, "the new extents cover the new end");
        file.physicalPosition(3 * DiskIo.ALIGNMENT);
    }

    /** Reserved blocks past the end have physical positions, so a write there has a place in the scan. */
    @Test
    void reservedBlocksPastTheEndHavePositions() throws IOException {
        Path file = dir.resolve("reserved-positions.bin");
        try (WritableFile out = reader.openForWriting(file)) {
            out.writeAligned(0, AlignedBuffers.allocate(DiskIo.ALIGNMENT));
            assertThrows(IOException.class, () -> out.physicalPosition(MIB), "nothing reserved yet");
            assumeTrue(out.allocate(0, 2 * MIB), "the file system cannot reserve blocks");
            long start = out.physicalPosition(MIB);
            assertEquals(start + DiskIo.ALIGNMENT, out.physicalPosition(MIB + DiskIo.ALIGNMENT));
            assertThrows(IOException.class, () -> out.physicalPosition(3 * MIB), "past the reservation");
        }
        try (OpenFile in = reader.open(file)) {
            assertThrows(IOException.class, () -> in.physicalPosition(MIB), "a reader sees the file's size only");
        }
    }

    @Test
    void aFileSystemThatRefusesODirectIsNamed() {
        Path proc = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(proc), "no " + proc + " to try O_DIRECT on");
        IOException e = assertThrows(IOException.class, () -> open(proc));
        assertMessage(e, "open " + proc + " with O_DIRECT: Invalid argument", REFUSES);
    }

    /** The C code checks its arguments itself, before any memory is touched, whatever Java checked. */
    @Test
    void theCCodeRefusesBadArgumentsBeforeTouchingMemory() throws IOException {
        int fd = NativeDiskIo.open0(data.toString().getBytes(), data.toString(), false);
        try {
            ByteBuffer buffer = AlignedBuffers.allocate(2 * DiskIo.ALIGNMENT);
            int a = DiskIo.ALIGNMENT;
            assertEquals(a, NativeDiskIo.pread0(fd, buffer, 0, a, a, "data"));
            assertBadArgument("null", () -> NativeDiskIo.pread0(fd, null, 0, a, 0, "data"));
            assertBadArgument("not a direct buffer",
                () -> NativeDiskIo.pread0(fd, ByteBuffer.allocate(a), 0, a, 0, "data"));
            assertBadArgument("do not fit", () -> NativeDiskIo.pread0(fd, buffer, a, 2 * a, 0, "data"));
            assertBadArgument("do not fit", () -> NativeDiskIo.pread0(fd, buffer, -a, a, 0, "data"));
            assertBadArgument("do not fit", () -> NativeDiskIo.pread0(fd, buffer, 0, -a, 0, "data"));
            assertBadArgument("do not fit",
                () -> NativeDiskIo.pread0(fd, buffer, Integer.MAX_VALUE - 10, a, 0, "data"));
            assertBadArgument("aligned", () -> NativeDiskIo.pread0(fd, buffer, 1, a, 0, "data"));
            assertBadArgument("aligned", () -> NativeDiskIo.pread0(fd, buffer, 0, 100, 0, "data"));
            assertBadArgument("aligned", () -> NativeDiskIo.pread0(fd, buffer, 0, a, 100, "data"));
            assertBadArgument("aligned", () -> NativeDiskIo.pread0(fd, buffer, 0, a, -a, "data"));
            assertBadArgument("null", () -> NativeDiskIo.open0(null, "nothing", false));
            assertBadArgument("advice", () -> NativeDiskIo.fadvise0(fd, 0, 1, 99, "data"));
            assertBadArgument("null", () -> NativeDiskIo.pwrite0(fd, null, 0, a, 0, "data"));
            assertBadArgument("not a direct buffer",
                () -> NativeDiskIo.pwrite0(fd, ByteBuffer.allocate(a), 0, a, 0, "data"));
            assertBadArgument("do not fit", () -> NativeDiskIo.pwrite0(fd, buffer, a, 2 * a, 0, "data"));
            assertBadArgument("aligned", () -> NativeDiskIo.pwrite0(fd, buffer, 0, a, 100, "data"));
            assertBadArgument("reserve", () -> NativeDiskIo.fallocate0(fd, -1, a, "data"));
            assertBadArgument("reserve", () -> NativeDiskIo.fallocate0(fd, 0, 0, "data"));
            assertBadArgument("size", () -> NativeDiskIo.ftruncate0(fd, -1, "data"));
            assertMessage(assertThrows(IOException.class,
                () -> NativeDiskIo.pwrite0(fd, buffer, 0, a, 0, "the read-only data")),
                "pwrite the read-only data at offset 0, 4096 bytes", "Bad file descriptor");
        } finally {
            NativeDiskIo.close0(fd, data.toString());
        }
        // A closed descriptor's number may be reused at once by another thread of the JVM, so the
        // descriptor that can never be open stands for it.
        IOException closed = assertThrows(IOException.class,
            () -> NativeDiskIo.pread0(-1, AlignedBuffers.allocate(4096), 0, 4096, 0, "the closed file"));
        assertMessage(closed, "pread the closed file at offset 0", "Bad file descriptor");
        assertMessage(assertThrows(IOException.class, () -> NativeDiskIo.fstat0(-1, "nothing")), "fstat nothing",
            "Bad file descriptor");
        assertMessage(assertThrows(IOException.class, () -> NativeDiskIo.fiemap0(-1, "nothing")), "FIEMAP nothing",
            "Bad file descriptor");
        assertMessage(assertThrows(IOException.class, () -> NativeDiskIo.fdatasync0(-1, "nothing")),
            "fdatasync nothing", "Bad file descriptor");
        assertMessage(assertThrows(IOException.class, () -> NativeDiskIo.ftruncate0(-1, 0, "nothing")),
            "ftruncate nothing to 0 bytes", "Bad file descriptor");
    }

    private static void assertBadArgument(String part, ThrowingCall call) {
        assertMessage(assertThrows(IllegalArgumentException.class, call::run), part);
    }

    /** A native call that may throw. */
    private interface ThrowingCall {
        void run() throws IOException;
    }
}

package io.rondo.scheduler.device;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What every {@link DiskIo} must do, run against each reader: the bytes it reads match plain Java
 * I/O of the same range (by CRC32) over random aligned and unaligned ranges, up to and past the
 * end of the file; and each misuse or failure ends in an exception with a readable message.
 */
abstract class OpenFileContract {

    static final int MIB = 1 << 20;
    static final int FILE_SIZE = 8 * MIB;
    static final int ODD_FILE_SIZE = 3 * DiskIo.ALIGNMENT + 1234;
    static final int RANGES = 400;
    static final int MAX_RANGE = MIB;

    @TempDir
    static Path dir;

    static Path data;
    static Path odd;

    DiskIo reader;
    private final List<OpenFile> opened = new ArrayList<>();

    /** The reader under test; may abort the test with an assumption where it cannot run. */
    abstract DiskIo reader();

    @BeforeAll
    static void writeFiles() throws IOException {
        data = dir.resolve("data.bin");
        odd = dir.resolve("odd.bin");
        write(data, FILE_SIZE, 1);
        write(odd, ODD_FILE_SIZE, 2);
    }

    @BeforeEach
    void pickReader() {
        reader = reader();
    }

    @AfterEach
    void closeFiles() throws IOException {
        for (OpenFile file : opened) {
            file.close();
        }
    }

    static void write(Path file, int size, long seed) throws IOException {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(ByteBuffer.wrap(bytes));
            channel.force(true);
        }
    }

    OpenFile open(Path file) throws IOException {
        OpenFile open = reader.open(file);
        opened.add(open);
        return open;
    }

    /** The CRC32 and length of {@code [offset, offset + length)} read with plain Java I/O, clipped to the file. */
    static long[] expected(Path file, long offset, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            int count = (int) Math.max(0, Math.min(length, channel.size() - offset));
            ByteBuffer bytes = ByteBuffer.allocate(count);
            int read;
            do {
                read = channel.read(bytes, offset + bytes.position());
            } while (read > 0 && bytes.hasRemaining());
            bytes.flip();
            return new long[] {crc(bytes), bytes.remaining()};
        }
    }

    static long crc(ByteBuffer bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes.duplicate());
        return crc.getValue();
    }

    static void assertSameBytes(Path file, long offset, int length, ByteBuffer got, String what) throws IOException {
        long[] want = expected(file, offset, length);
        String range = what + " " + length + " bytes at " + offset;
        assertEquals(want[1], got.remaining(), range + ": length");
        assertEquals(want[0], crc(got), range + ": CRC32");
    }

    @Test
    void randomRangesMatchPlainJavaReads() throws IOException {
        OpenFile file = open(data);
        assertEquals(FILE_SIZE, file.size());
        ByteBuffer scratch = AlignedBuffers.allocate(MAX_RANGE + 2 * DiskIo.ALIGNMENT);
        Random random = new Random(42);
        int pastEnd = 0;
        for (int i = 0; i < RANGES; i++) {
            boolean nearEnd = i % 5 == 0;
            long offset = nearEnd ? FILE_SIZE - random.nextInt(3 * DiskIo.ALIGNMENT) : random.nextInt(FILE_SIZE);
            int length = random.nextInt(MAX_RANGE) + 1;
            if (i % 2 == 0) {
                offset = offset / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT;
                length = (length + DiskIo.ALIGNMENT - 1) / DiskIo.ALIGNMENT * DiskIo.ALIGNMENT;
                ByteBuffer dst = scratch.duplicate().clear().limit(length);
                int read = file.readAligned(offset, dst);
                assertEquals(read, dst.position(), "readAligned moves the position by the bytes read");
                assertSameBytes(data, offset, length, dst.flip(), "readAligned");
            } else {
                assertSameBytes(data, offset, length, file.read(offset, length, scratch), "read");
            }
            if (offset + length >= FILE_SIZE) {
                pastEnd++;
            }
        }
        assertTrue(pastEnd > RANGES / 10, "enough ranges reach the end of the file: " + pastEnd);
    }

    @Test
    void readsEndShortAtAnUnalignedEndOfFile() throws IOException {
        OpenFile file = open(odd);
        ByteBuffer scratch = AlignedBuffers.allocate(8 * DiskIo.ALIGNMENT);
        for (long offset : new long[] {0, 1, 4095, 4096, 3 * DiskIo.ALIGNMENT, ODD_FILE_SIZE - 1, ODD_FILE_SIZE,
            ODD_FILE_SIZE + 1, 10 * DiskIo.ALIGNMENT}) {
            for (int length : new int[] {0, 1, 1234, 4096, 5000, 4 * DiskIo.ALIGNMENT}) {
                assertSameBytes(odd, offset, length, file.read(offset, length, scratch), "read");
            }
        }
        ByteBuffer whole = scratch.duplicate().clear().limit(4 * DiskIo.ALIGNMENT);
        assertEquals(ODD_FILE_SIZE, file.readAligned(0, whole));
        assertEquals(0, file.readAligned(4 * DiskIo.ALIGNMENT, scratch.duplicate().clear().limit(4096)),
            "past the end: nothing");
    }

    @Test
    void readLeavesTheScratchBufferAsItWas() throws IOException {
        OpenFile file = open(data);
        ByteBuffer scratch = AlignedBuffers.allocate(4 * DiskIo.ALIGNMENT);
        ByteBuffer view = file.read(5000, 3000, scratch);
        assertEquals(3000, view.remaining());
        assertEquals(0, scratch.position());
        assertEquals(scratch.capacity(), scratch.limit());
    }

    @Test
    void physicalPositionsAreRefusedPastTheEnd() throws IOException {
        OpenFile file = open(odd);
        file.physicalPosition(ODD_FILE_SIZE - 1);
        IOException e = assertThrows(IOException.class, () -> file.physicalPosition(ODD_FILE_SIZE));
        assertMessage(e, "past the end", odd.toString(), String.valueOf(ODD_FILE_SIZE));
        assertThrows(IllegalArgumentException.class, () -> file.physicalPosition(-1));
    }

    @Test
    void adviceIsTaken() throws IOException {
        OpenFile file = open(data);
        for (OpenFile.Advice advice : OpenFile.Advice.values()) {
            file.advise(0, FILE_SIZE, advice);
        }
        assertThrows(IllegalArgumentException.class, () -> file.advise(-1, 10, OpenFile.Advice.NORMAL));
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("no-such-file");
        IOException e = assertThrows(IOException.class, () -> open(missing));
        assertMessage(e, missing.toString(), "No such file or directory");
    }

    @Test
    void aDirectoryIsRefused() {
        IOException e = assertThrows(IOException.class, () -> open(dir));
        assertMessage(e, dir.toString(), "Is a directory");
    }

    /**
     * Tests run as root, which reads a mode-000 file; but a sysctl file that is write-only
     * ({@code /proc/sys/vm/drop_caches}, mode 0200) refuses even root.
     */
    @Test
    void aFileWithoutPermissionIsRefused() {
        Path writeOnly = Path.of("/proc/sys/vm/drop_caches");
        assumeTrue(Files.exists(writeOnly), "no " + writeOnly + " to provoke a permission error with");
        try (InputStream in = Files.newInputStream(writeOnly)) {
            in.read();
            Assumptions.abort("this user may read " + writeOnly + ", so no permission error can be provoked");
        } catch (AccessDeniedException expected) {
            IOException e = assertThrows(IOException.class, () -> open(writeOnly));
            assertMessage(e, writeOnly.toString(), "Permission denied");
        } catch (IOException other) {
            Assumptions.abort("plain Java cannot open " + writeOnly + " either, but not for want of permission: "
                + other);
        }
    }

    @Test
    void unalignedReadsAreRefusedBeforeAnyIo() throws IOException {
        OpenFile file = open(data);
        ByteBuffer aligned = AlignedBuffers.allocate(3 * DiskIo.ALIGNMENT);
        IllegalArgumentException offset = assertThrows(IllegalArgumentException.class,
            () -> file.readAligned(100, aligned.duplicate().limit(DiskIo.ALIGNMENT)));
        assertMessage(offset, "offset 100");
        IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
            () -> file.readAligned(0, aligned.duplicate().limit(100)));
        assertMessage(length, "length 100");
        IllegalArgumentException address = assertThrows(IllegalArgumentException.class,
            () -> file.readAligned(0, aligned.slice(1, DiskIo.ALIGNMENT)));
        assertMessage(address, "address", "aligned");
        IllegalArgumentException unalignedScratch = assertThrows(IllegalArgumentException.class,
            () -> file.read(0, 10, aligned.slice(1, 2 * DiskIo.ALIGNMENT)));
        assertMessage(unalignedScratch, "address");
    }

    @Test
    void heapNullAndReadOnlyBuffersAreRefused() throws IOException {
        OpenFile file = open(data);
        IllegalArgumentException heap = assertThrows(IllegalArgumentException.class,
            () -> file.readAligned(0, ByteBuffer.allocate(DiskIo.ALIGNMENT)));
        assertMessage(heap, "heap buffer");
        IllegalArgumentException heapScratch = assertThrows(IllegalArgumentException.class,
            () -> file.read(0, 10, ByteBuffer.allocate(DiskIo.ALIGNMENT)));
        assertMessage(heapScratch, "heap buffer");
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> file.readAligned(0, null));
        assertMessage(none, "null");
        IllegalArgumentException readOnly = assertThrows(IllegalArgumentException.class,
            () -> file.readAligned(0, AlignedBuffers.allocate(DiskIo.ALIGNMENT).asReadOnlyBuffer()));
        assertMessage(readOnly, "read-only");
    }

    @Test
    void aScratchBufferTooSmallIsRefusedWithTheSizes() throws IOException {
        OpenFile file = open(data);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> file.read(4000, 200, AlignedBuffers.allocate(DiskIo.ALIGNMENT)));
        assertMessage(e, "4096 bytes remaining", "200 bytes at offset 4000", "8192");
        assertEquals(8192, OpenFile.alignedSpan(4000, 200));
        assertThrows(IllegalArgumentException.class, () -> file.read(-1, 10, AlignedBuffers.allocate(4096)));
    }

    @Test
    void aClosedFileIsRefused() throws IOException {
        OpenFile file = reader.open(data);
        file.close();
        file.close();
        ByteBuffer buffer = AlignedBuffers.allocate(DiskIo.ALIGNMENT);
        assertMessage(assertThrows(IOException.class, () -> file.readAligned(0, buffer)), "closed", data.toString());
        assertMessage(assertThrows(IOException.class, () -> file.read(1, 10, buffer)), "closed");
        assertMessage(assertThrows(IOException.class, file::size), "closed");
        assertMessage(assertThrows(IOException.class, file::extents), "closed");
        assertMessage(assertThrows(IOException.class, () -> file.physicalPosition(0)), "closed");
        assertMessage(assertThrows(IOException.class, () -> file.advise(0, 1, OpenFile.Advice.NORMAL)), "closed");
    }

    @Test
    void theDeviceOfTheTemporaryFolderIsFound() throws IOException {
        long dev = ((Number) Files.getAttribute(dir, "unix:dev")).longValue();
        DeviceInfo device = reader.device(dir);
        assertEquals(BlockDevices.major(dev), device.major());
        assertEquals(BlockDevices.minor(dev), device.minor());
        assertTrue(Integer.bitCount(device.logicalBlockSize()) == 1 && device.logicalBlockSize() >= 512,
            "logical block size " + device.logicalBlockSize());
        if (Files.exists(BlockDevices.SYS_DEV_BLOCK.resolve(device.id()))) {
            assertNotEquals(BlockDevices.UNKNOWN, device.name(), "sysfs knows " + device.id());
        }
    }

    /** Blocks written through a file open for writing read back the same, through either reader and plain Java. */
    @Test
    void writtenBlocksReadBackThroughEitherReader() throws IOException {
        Path file = dir.resolve("written-" + reader.kind() + ".bin");
        byte[] bytes = new byte[3 * DiskIo.ALIGNMENT];
        new Random(3).nextBytes(bytes);
        ByteBuffer src = AlignedBuffers.allocate(bytes.length).put(bytes).flip();
        try (WritableFile out = reader.openForWriting(file)) {
            assertEquals(0, out.size(), "created empty");
            out.writeAligned(0, src.slice(0, 2 * DiskIo.ALIGNMENT));
            ByteBuffer last = src.slice(2 * DiskIo.ALIGNMENT, DiskIo.ALIGNMENT);
            out.writeAligned(2 * DiskIo.ALIGNMENT, last);
            assertEquals(0, last.remaining(), "the write moves the position past what it wrote");
            out.force();
            assertEquals(bytes.length, out.size());
            assertSameBytes(file, 0, bytes.length, out.read(0, bytes.length, AlignedBuffers.allocate(bytes.length)),
                "the writer itself");
        }
        assertEquals(crc(ByteBuffer.wrap(bytes)), expected(file, 0, bytes.length)[0],
            "plain Java reads what was written");
        for (DiskIo each : List.of(new JavaDiskIo(DiskIoSelector.DISABLED), reader)) {
            OpenFile in = each.open(file);
            opened.add(in);
            assertSameBytes(file, 0, bytes.length, in.read(0, bytes.length, AlignedBuffers.allocate(bytes.length)),
                each.kind() + " reader");
        }
    }

    @Test
    void openingForWritingKeepsAnExistingFile() throws IOException {
        Path copy = dir.resolve("kept-" + reader.kind() + ".bin");
        write(copy, ODD_FILE_SIZE, 2);
        try (WritableFile out = reader.openForWriting(copy)) {
            assertEquals(ODD_FILE_SIZE, out.size());
        }
        assertEquals(expected(odd, 0, ODD_FILE_SIZE)[0], expected(copy, 0, ODD_FILE_SIZE)[0], "bytes untouched");
    }

    /** A reservation leaves the size alone; the native reader reserves the blocks (ext4, xfs), the Java one cannot. */
    @Test
    void allocatingKeepsTheSize() throws IOException {
        Path file = dir.resolve("reserved-" + reader.kind() + ".bin");
        try (WritableFile out = reader.openForWriting(file)) {
            out.writeAligned(0, AlignedBuffers.allocate(DiskIo.ALIGNMENT));
            long blocksBefore = allocatedBlocks(file);
            boolean reserved = out.allocate(0, 4 * MIB);
            assertEquals(DiskIo.ALIGNMENT, out.size(), "the size stays");
            if (reserved) {
                assertTrue(allocatedBlocks(file) >= blocksBefore + 4 * MIB / 512 - 8,
                    "st_blocks grew by the reservation: " + blocksBefore + " -> " + allocatedBlocks(file));
                out.physicalPosition(2 * MIB);
                ByteBuffer block = AlignedBuffers.allocate(DiskIo.ALIGNMENT);
                block.put(0, (byte) 7);
                out.writeAligned(2 * MIB, block);
                assertEquals(2 * MIB + DiskIo.ALIGNMENT, out.size(), "a write into the reservation grows the file");
            } else {
                assertEquals(blocksBefore, allocatedBlocks(file), "nothing reserved");
            }
            assertThrows(IllegalArgumentException.class, () -> out.allocate(-1, 10));
            assertThrows(IllegalArgumentException.class, () -> out.allocate(0, 0));
        }
    }

    @Test
    void truncatingCutsAndExtendsWithZeros() throws IOException {
        Path file = dir.resolve("truncated-" + reader.kind() + ".bin");
        try (WritableFile out = reader.openForWriting(file)) {
            ByteBuffer ones = AlignedBuffers.allocate(2 * DiskIo.ALIGNMENT);
            while (ones.hasRemaining()) {
                ones.put((byte) 1);
            }
            out.writeAligned(0, ones.flip());
            out.truncate(DiskIo.ALIGNMENT);
            assertEquals(DiskIo.ALIGNMENT, out.size());
            out.truncate(3 * DiskIo.ALIGNMENT);
            assertEquals(3 * DiskIo.ALIGNMENT, out.size());
            ByteBuffer back = out.read(0, 3 * DiskIo.ALIGNMENT, AlignedBuffers.allocate(3 * DiskIo.ALIGNMENT));
            assertEquals(1, back.get(DiskIo.ALIGNMENT - 1));
            assertEquals(0, back.get(DiskIo.ALIGNMENT), "the cut bytes are gone: zeros after the extension");
            assertThrows(IllegalArgumentException.class, () -> out.truncate(-1));
        }
    }

    @Test
    void misalignedWritesAreRefusedBeforeAnyIo() throws IOException {
        Path file = dir.resolve("misaligned-" + reader.kind() + ".bin");
        try (WritableFile out = reader.openForWriting(file)) {
            ByteBuffer aligned = AlignedBuffers.allocate(2 * DiskIo.ALIGNMENT);
            assertMessage(assertThrows(IllegalArgumentException.class,
                () -> out.writeAligned(100, aligned.duplicate().limit(DiskIo.ALIGNMENT))), "offset 100");
            assertMessage(assertThrows(IllegalArgumentException.class,
                () -> out.writeAligned(0, aligned.duplicate().limit(100))), "length 100");
            assertMessage(assertThrows(IllegalArgumentException.class,
                () -> out.writeAligned(0, aligned.slice(1, DiskIo.ALIGNMENT))), "address", "aligned");
            assertMessage(assertThrows(IllegalArgumentException.class,
                () -> out.writeAligned(0, ByteBuffer.allocate(DiskIo.ALIGNMENT))), "heap buffer");
            assertEquals(0, out.size(), "nothing was written");
            out.writeAligned(0, aligned.asReadOnlyBuffer());
            assertEquals(aligned.capacity(), out.size(), "a read-only buffer is written");
        }
    }

    @Test
    void aFileOpenForReadingOrClosedIsNotWritten() throws IOException {
        WritableFile readOnly = (WritableFile) open(data);
        ByteBuffer block = AlignedBuffers.allocate(DiskIo.ALIGNMENT);
        assertMessage(assertThrows(IOException.class, () -> readOnly.writeAligned(0, block)), "reading only",
            data.toString());
        assertMessage(assertThrows(IOException.class, readOnly::force), "reading only");
        assertMessage(assertThrows(IOException.class, () -> readOnly.allocate(0, 1)), "reading only");
        assertMessage(assertThrows(IOException.class, () -> readOnly.truncate(0)), "reading only");
        assertEquals(FILE_SIZE, readOnly.size());
        WritableFile closed = reader.openForWriting(dir.resolve("closed-" + reader.kind() + ".bin"));
        closed.close();
        assertMessage(assertThrows(IOException.class, () -> closed.writeAligned(0, block)), "closed");
        assertMessage(assertThrows(IOException.class, closed::force), "closed");
    }

    @Test
    void openingForWritingNamesWhatIsWrong() {
        assertMessage(assertThrows(IOException.class, () -> reader.openForWriting(dir)), dir.toString(),
            "Is a directory");
        Path orphan = dir.resolve("no-such-folder").resolve("file");
        assertMessage(assertThrows(IOException.class, () -> reader.openForWriting(orphan)), orphan.toString(),
            "No such file or directory");
    }

    /** st_blocks, in 512-byte units, as stat(1) reports it. */
    static long allocatedBlocks(Path file) throws IOException {
        Process stat = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        try (InputStream out = stat.getInputStream()) {
            return Long.parseLong(new String(out.readAllBytes(), StandardCharsets.US_ASCII).trim());
        }
    }

    static void assertMessage(Throwable e, String... parts) {
        String message = String.valueOf(e.getMessage());
        for (String part : parts) {
            assertTrue(message.contains(part), "message \"" + message + "\" should contain \"" + part + "\"");
        }
    }
}

package io.rondo.scheduler.device;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pure-Java reader that {@code -Drondo.native=false} (or a native library that will not load)
 * brings in: the {@link OpenFileContract}, logical offsets as positions, and the same bytes as the
 * native reader.
 */
class JavaDiskIoTest extends OpenFileContract {

    @Override
    DiskIo reader() {
        return new JavaDiskIo(DiskIoSelector.DISABLED);
    }

    @Test
    void saysWhatItIs() {
        assertEquals("java", reader.kind());
        assertEquals(DiskIoSelector.DISABLED, reader.fallbackReason());
        assertFalse(reader.physicalPositions());
    }

    @Test
    void positionsAreLogicalOffsetsInOneExtent() throws IOException {
        OpenFile file = open(data);
        assertEquals(List.of(new OpenFile.Extent(0, 0, FILE_SIZE, AbstractOpenFile.EXTENT_LAST)), file.extents());
        for (long offset : new long[] {0, 1, 4096, FILE_SIZE - 1}) {
            assertEquals(offset, file.physicalPosition(offset));
        }
    }

    @Test
    void usesODirectWhereTheFileSystemTakesIt() throws IOException {
        JavaOpenFile onTmp = (JavaOpenFile) open(data);
        assertTrue(onTmp.direct(), "java.io.tmpdir's file system takes O_DIRECT");
        Path proc = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(proc), "no " + proc + " to try O_DIRECT on");
        JavaOpenFile onProc = (JavaOpenFile) open(proc);
        assertFalse(onProc.direct(), "procfs refuses O_DIRECT, so the page cache is used");
        ByteBuffer status = onProc.read(0, 100, AlignedBuffers.allocate(DiskIo.ALIGNMENT));
        assertTrue(status.remaining() > 0, "procfs still reads");
    }

    @Test
    void readsTheSameBytesAsTheNativeReader() throws IOException {
        OpenFile java = open(data);
        DiskIo nativeReader = NativeDiskIoTest.loadedReader(data);
        try (OpenFile nativeFile = nativeReader.open(data)) {
            ByteBuffer javaScratch = AlignedBuffers.allocate(MAX_RANGE + 2 * DiskIo.ALIGNMENT);
            ByteBuffer nativeScratch = AlignedBuffers.allocate(MAX_RANGE + 2 * DiskIo.ALIGNMENT);
            Random random = new Random(7);
            for (int i = 0; i < 100; i++) {
                long offset = random.nextInt(FILE_SIZE + DiskIo.ALIGNMENT);
                int length = random.nextInt(MAX_RANGE);
                assertEquals(nativeFile.read(offset, length, nativeScratch), java.read(offset, length, javaScratch),
                    length + " bytes at " + offset);
            }
        }
    }
}

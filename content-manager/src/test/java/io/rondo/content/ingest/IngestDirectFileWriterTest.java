package io.rondo.content.ingest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The O_DIRECT writer ingest copies with: the bytes given, no more, whether the file system takes O_DIRECT or not. */
class IngestDirectFileWriterTest {

    private static final int BUFFER = 8192;

    @TempDir
    Path temp;

    private static byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    /** Writes {@code content} in uneven pieces, some from direct buffers. */
    private static void writeInPieces(DirectFileWriter out, byte[] content) throws IOException {
        int[] pieces = {1, 4095, 7, 4096, 10_000, 3};
        int at = 0;
        for (int i = 0; at < content.length; i++) {
            int n = Math.min(pieces[i % pieces.length], content.length - at);
            ByteBuffer piece = i % 2 == 0 ? ByteBuffer.wrap(content, at, n) : ByteBuffer.allocateDirect(n)
                .put(content, at, n).flip();
            assertEquals(n, out.write(piece));
            assertFalse(piece.hasRemaining());
            at += n;
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 4097, BUFFER - 1, BUFFER, BUFFER + 1, 5 * BUFFER + 1234, 6 * BUFFER})
    void writesExactlyTheBytesGivenDirect(int length) throws IOException {
        check(length, true);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 4097, BUFFER, 5 * BUFFER + 1234})
    void writesExactlyTheBytesGivenThroughThePageCache(int length) throws IOException {
        check(length, false);
    }

    private void check(int length, boolean direct) throws IOException {
        Path file = temp.resolve("f" + length);
        byte[] content = bytes(length);
        try (DirectFileWriter out = new DirectFileWriter(file, BUFFER, direct)) {
            if (!direct) {
                assertFalse(out.isDirect());
            }
            writeInPieces(out, content);
            assertEquals(length, out.size());
        }
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    @Test
    void writesAFilmSizedCopyWithTheDefaultBuffers() throws IOException {
        Path file = temp.resolve("big");
        byte[] content = bytes(3 * DirectFileWriter.DEFAULT_BUFFER_BYTES + 777);
        try (DirectFileWriter out = new DirectFileWriter(file)) {
            out.write(ByteBuffer.wrap(content));
        }
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    @Test
    void refusesAFileThatExists() throws IOException {
        Path file = Files.writeString(temp.resolve("there"), "x");
        assertThrows(FileAlreadyExistsException.class, () -> new DirectFileWriter(file));
        assertEquals("x", Files.readString(file));
    }

    @Test
    void fallsBackToThePageCacheWhenTheFirstDirectWriteIsRefused() throws IOException {
        Path file = temp.resolve("refused");
        byte[] content = bytes(3 * BUFFER + 5);
        AtomicInteger calls = new AtomicInteger();
        try (DirectFileWriter out = new DirectFileWriter(file, BUFFER, true, sink -> (block, position) -> {
            if (calls.getAndIncrement() == 0) {
                throw new IOException("Invalid argument");
            }
            sink.write(block, position);
        })) {
            assumeTrue(out.isDirect(), "this file system refuses O_DIRECT at open");
            writeInPieces(out, content);
        }
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    private static DirectFileWriter failingPast(Path file, long from, IOException failure) throws IOException {
        return new DirectFileWriter(file, BUFFER, true, sink -> (block, position) -> {
            if (position >= from) {
                throw failure;
            }
            sink.write(block, position);
        });
    }

    @Test
    void aFailedWriteSurfacesOnALaterWrite() throws IOException {
        IOException failure = new IOException("No space left on device");
        DirectFileWriter out = failingPast(temp.resolve("full"), BUFFER, failure);
        IOException thrown = assertThrows(IOException.class, () -> {
            for (int i = 0; i < 10; i++) {
                out.write(ByteBuffer.wrap(bytes(BUFFER)));
            }
        });
        assertSame(failure, thrown);
        assertSame(failure, assertThrows(IOException.class, out::close));
        assertFalse(out.isOpen());
        out.close();
    }

    @Test
    void aFailedLastWriteSurfacesOnClose() throws IOException {
        IOException failure = new IOException("Input/output error");
        DirectFileWriter out = failingPast(temp.resolve("eio"), BUFFER, failure);
        out.write(ByteBuffer.wrap(bytes(BUFFER + 10)));
        assertSame(failure, assertThrows(IOException.class, out::close));
        assertFalse(out.isOpen());
    }
}

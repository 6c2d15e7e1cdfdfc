package io.rondo.systemtest;

import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.MediaObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deleting an object never waits for its readers, as on a Unix file system: a slow download (a
 * client that stops reading, holding its connection) does not keep the object's name or file; it
 * reads on from the file it opened, whole and correct, and that file is closed once it is done, so
 * the disk gets its space back. An object ingested under the same name is read from its own file.
 */
class DeleteWhileReadTest {

    /** Larger than the hot-object cache takes, so every chunk of it is a disk read. */
    private static final int SIZE = 12 << 20;

    @TempDir
    Path temp;

    private RondoUnderTest rondo;

    @AfterEach
    void stop() {
        if (rondo != null) {
            rondo.close();
        }
    }

    /** This process's open descriptors that name {@code file}, deleted or not. */
    private static long descriptorsOf(Path file) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith(file.toString());
                } catch (IOException gone) {
                    return false;
                }
            }).count();
        }
    }

    @Test
    void aSlowDownloadDoesNotHoldItsObjectAndReadsOnFromTheFileItOpened() throws Exception {
        rondo = RondoUnderTest.start(temp, SIZE);
        Path file = rondo.library.store().pathOf(rondo.docObject.placement().files().get(0));
        try (Socket reader = new Socket("127.0.0.1", rondo.httpPort())) {
            reader.setReceiveBufferSize(16 * 1024);
            reader.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
            reader.getOutputStream().write(("GET " + RondoUnderTest.DOC + " HTTP/1.1\r\nHost: x\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = reader.getInputStream();
            byte[] first = in.readNBytes(4096);
            assertTrue(new String(first, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));

            MediaObject deleted = rondo.library.directory().delete(RondoUnderTest.DOC);

            assertEquals(rondo.docObject.id(), deleted.id());
            assertTrue(rondo.library.directory().find(RondoUnderTest.DOC).isEmpty(), "the name is gone at once");
            assertFalse(Files.exists(file), "the file is unlinked at once");
            byte[] doc = new byte[SIZE];
            new java.util.Random(7).nextBytes(doc);
            byte[] received = readBody(first, in);
            assertArrayEquals(doc, received, "the reader got every byte of the object it began to read");
        }
        await("the deleted file is closed once its reader is done").atMost(Duration.ofSeconds(10))
            .until(() -> descriptorsOf(file) == 0);

        byte[] replacement = "another object, the same name\n".getBytes(StandardCharsets.UTF_8);
        rondo.library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("new.bin"), replacement),
            RondoUnderTest.DOC, null, 0), copied -> { });
        assertArrayEquals(replacement, RawHttpTest.read(get(), false).body(),
            "an object ingested under the name is read from its own file");
    }

    private InputStream get() throws IOException {
        Socket socket = new Socket("127.0.0.1", rondo.httpPort());
        socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
        socket.getOutputStream().write(("GET " + RondoUnderTest.DOC + " HTTP/1.1\r\nHost: x\r\nConnection: close"
            + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        return socket.getInputStream();
    }

    /** The body of the answer whose first bytes are {@code first}: what follows its head, to its end. */
    private static byte[] readBody(byte[] first, InputStream in) throws IOException {
        String start = new String(first, StandardCharsets.ISO_8859_1);
        int bodyStart = start.indexOf("\r\n\r\n") + 4;
        byte[] rest = in.readNBytes(SIZE - (first.length - bodyStart));
        byte[] body = Arrays.copyOfRange(first, bodyStart, first.length);
        byte[] whole = Arrays.copyOf(body, body.length + rest.length);
        System.arraycopy(rest, 0, whole, body.length, rest.length);
        return whole;
    }
}

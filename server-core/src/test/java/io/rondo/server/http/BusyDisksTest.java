package io.rondo.server.http;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.config.DiskSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server short of room for a read answers 503 with a Retry-After, so a client, or a balancer's
 * {@code retry-on 503}, tries again later or at another replica: disks too busy to take the read
 * (the generator's queue holds one job and its thread is not running, so the first GET's read
 * waits there and the next finds the queue full), or no buffer memory left for it.
 */
class BusyDisksTest {

    @TempDir
    Path temp;

    @Test
    void aReadRefusedForAFullQueueIs503WithRetryAfterAndTheConnectionServesOn() throws Exception {
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             DiskRuntime disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                     .model(DiskProfile.paperDisk())
                     .settings(new DiskSettings(DiskSettings.DEFAULT_MAX_READ, 1, 1))
                     .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()))) {
            library.ingest().ingest(new IngestRequest(Files.writeString(temp.resolve("a.txt"), "some text"),
                "/a.txt", null, 0), c -> { });
            try (HttpServer server = HttpServer.on(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks)
                    .clock(SystemClocks.utc())
                    .start();
                 Socket waiting = new Socket("127.0.0.1", server.address().getPort());
                 Socket refused = new Socket("127.0.0.1", server.address().getPort())) {
                send(waiting, "GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n");
                refused.setSoTimeout(5_000);
                await("the first read waits in the generator's queue").atMost(Duration.ofSeconds(5))
                    .until(() -> server.hotObjects().misses() == 1);

                send(refused, "GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n");
                String head = head(refused.getInputStream());

                assertTrue(head.startsWith("HTTP/1.1 503 "), head);
                assertTrue(head.toLowerCase(Locale.ROOT).contains("\r\nretry-after: 1\r\n"), head);
                send(refused, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(head(refused.getInputStream()).startsWith("HTTP/1.1 200 "),
                    "the connection is kept: a folder page needs no disk");
            }
        }
    }

    @Test
    void aReadWithNoBufferMemoryLeftIs503WithRetryAfterAndTheConnectionServesOn() throws Exception {
        try (Library library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
             DiskRuntime disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                     .model(DiskProfile.paperDisk())
                     .bufferCeilingBytes(4096)
                     .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()))) {
            library.ingest().ingest(new IngestRequest(Files.write(temp.resolve("big.bin"), new byte[10_000]),
                "/big.bin", null, 0), c -> { });
            library.ingest().ingest(new IngestRequest(Files.writeString(temp.resolve("a.txt"), "some text"),
                "/a.txt", null, 0), c -> { });
            disks.start();
            try (HttpServer server = HttpServer.on(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks)
                    .clock(SystemClocks.utc())
                    .start();
                 Socket client = new Socket("127.0.0.1", server.address().getPort())) {
                client.setSoTimeout(5_000);
                send(client, "GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n");
                String head = head(client.getInputStream());

                assertTrue(head.startsWith("HTTP/1.1 503 "), "a read of 12 KiB finds a 4 KiB ceiling: " + head);
                assertTrue(head.toLowerCase(Locale.ROOT).contains("\r\nretry-after: 1\r\n"), head);
                send(client, "GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(head(client.getInputStream()).startsWith("HTTP/1.1 200 "),
                    "the connection is kept, and a read that fits the ceiling is served");
            }
        }
    }

    private static void send(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The status line and headers of the next answer, and its body skipped by its Content-Length. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            assertTrue(b >= 0, "the connection closed before the answer's head ended");
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        String lower = text.toLowerCase(Locale.ROOT);
        int at = lower.indexOf("content-length: ");
        int length = Integer.parseInt(lower.substring(at + 16, lower.indexOf("\r\n", at)).trim());
        assertEquals(length, in.readNBytes(length).length);
        return text;
    }
}

package io.rondo.systemtest;

import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.server.config.ConnectionSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client can hold of a real server: connections (each port takes no more than its limits,
 * in all and from one address, and refuses the next in its own protocol's words), and request
 * bodies (one past {@code http.maxBody} is answered 413 and the connection closes, without a reset
 * that would lose the 413, and without a 408 after it).
 */
class HttpLimitsTest {

    /** HTTP: 3 connections, 2 an address; streams: 2, 1 an address. */
    private static final ConnectionSettings LIMITS = new ConnectionSettings(3, 2, 2, 1, 16, 16);

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 10_000, LIMITS);
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    @BeforeEach
    void noConnectionLeft() {
        await("the connections of the test before are closed").atMost(Duration.ofSeconds(5))
            .until(() -> rondo.httpLimit.open() == 0 && rondo.streamLimit.open() == 0);
    }

    /**
     * Waits until the HTTP port holds {@code connections}: the kernel completes a connection before
     * the server takes it, and connections are taken by several event loops, in no set order.
     */
    private static void awaitOpen(int connections) {
        await().atMost(Duration.ofSeconds(5)).until(() -> rondo.httpLimit.open() == connections);
    }

    private static Socket connect(String from, int port) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
        return socket;
    }

    private static void send(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static final String NOTE = "GET " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\n\r\n";

    /** Whether the server ended the connection, with no more bytes: an end of stream. */
    private static boolean ended(InputStream in) throws IOException {
        return in.read() == -1;
    }

    @Test
    void theHttpPortRefusesAConnectionPastItsLimitsWith503() throws Exception {
        int port = rondo.httpPort();
        try (Socket first = connect("127.0.0.1", port); Socket second = connect("127.0.0.1", port)) {
            assertTrue(second.isConnected());
            awaitOpen(2);
            RawHttpTest.Response perAddress;
            try (Socket third = connect("127.0.0.1", port)) {
                perAddress = RawHttpTest.read(third.getInputStream(), false);
                assertTrue(ended(third.getInputStream()), "a refused connection is closed");
            }
            assertEquals(503, perAddress.status());
            assertEquals("1", perAddress.headers().get("retry-after"));
            assertEquals("close", perAddress.headers().get("connection"));
            assertTrue(new String(perAddress.body(), StandardCharsets.UTF_8)
                .contains("http.maxConnectionsPerAddress"), "the refusal names the limit");

            try (Socket other = connect("127.0.0.2", port)) {
                awaitOpen(3);
                RawHttpTest.Response whole;
                try (Socket past = connect("127.0.0.2", port)) {
                    whole = RawHttpTest.read(past.getInputStream(), false);
                }
                assertEquals(503, whole.status(), "the port holds 3 in all");
                assertTrue(new String(whole.body(), StandardCharsets.UTF_8).contains("(http.maxConnections)"));
                send(other, NOTE);
                assertEquals(200, RawHttpTest.read(other.getInputStream(), false).status());
            }
            send(first, NOTE);
            assertArrayEquals(rondo.note, RawHttpTest.read(first.getInputStream(), false).body(),
                "the connections admitted are served as ever");
        }
        await("the places of closed connections come back").atMost(Duration.ofSeconds(5)).until(() -> {
            try (Socket again = connect("127.0.0.1", port)) {
                send(again, NOTE);
                return RawHttpTest.read(again.getInputStream(), false).status() == 200;
            }
        });
    }

    @Test
    void theStreamPortRefusesAConnectionPastItsLimitWithAnErrorFrame() throws Exception {
        try (Socket first = connect("127.0.0.1", rondo.streamPort())) {
            await().atMost(Duration.ofSeconds(5)).until(() -> rondo.streamLimit.open() == 1);
            byte[] refusal;
            try (Socket second = connect("127.0.0.1", rondo.streamPort())) {
                refusal = second.getInputStream().readAllBytes();
            }
            ErrorFrame error = assertInstanceOf(ErrorFrame.class, FrameCodec.decode(ByteBuffer.wrap(refusal)));
            assertEquals(ErrorCode.TOO_MANY_CONNECTIONS, error.errorCode());
            assertTrue(error.message().contains("streams.maxConnectionsPerAddress"), error.message());
            assertTrue(first.isConnected());
        }
    }

    // A body declared larger than http.maxBody: 413, the connection closes at once, and no 408 follows.
    @Test
    void aBodyDeclaredTooLargeIs413AndTheConnectionClosesWithNoMoreAnswers() throws Exception {
        try (Socket socket = connect("127.0.0.1", rondo.httpPort())) {
            send(socket, "POST " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n");
            RawHttpTest.Response response = RawHttpTest.read(socket.getInputStream(), false);

            assertEquals(413, response.status());
            assertEquals("close", response.headers().get("connection"));
            assertTrue(ended(socket.getInputStream()), "the connection ends after the 413, with no 408");
        }
    }

    // A chunked body that grows past http.maxBody: the client, still sending, reads the 413 whole, not a reset.
    @Test
    void aChunkedBodyGrowingPastTheLimitGets413AndAGracefulClose() throws Exception {
        try (Socket socket = connect("127.0.0.1", rondo.httpPort())) {
            send(socket, "POST " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = Integer.toHexString(8192) + "\r\n" + "b".repeat(8192) + "\r\n";
            OutputStream out = socket.getOutputStream();
            try {
                for (int i = 0; i < 64; i++) {
                    out.write(chunk.getBytes(StandardCharsets.ISO_8859_1));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (SocketException closedWhileSending) {
                // The server may have closed its side; what it answered is still to be read.
            }
            RawHttpTest.Response response = RawHttpTest.read(socket.getInputStream(), false);

            assertEquals(413, response.status());
            assertEquals("close", response.headers().get("connection"));
            assertTrue(ended(socket.getInputStream()), "the connection ends after the 413");
        }
    }

    // RFC 9112 6.1: a transfer coding other than a lone chunked is not taken.
    @Test
    void aTransferCodingOtherThanALoneChunkedIsRefused() throws Exception {
        try (Socket socket = connect("127.0.0.1", rondo.httpPort())) {
            send(socket, "POST " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked"
                + "\r\n\r\n0\r\n\r\n");
            assertEquals(501, RawHttpTest.read(socket.getInputStream(), false).status());
        }
        try (Socket socket = connect("127.0.0.1", rondo.httpPort())) {
            send(socket, "POST " + RondoUnderTest.NOTE + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip"
                + "\r\n\r\n");
            assertEquals(400, RawHttpTest.read(socket.getInputStream(), false).status());
        }
    }
}

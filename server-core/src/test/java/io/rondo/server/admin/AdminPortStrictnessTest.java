package io.rondo.server.admin;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.observe.RondoMetrics;
import io.rondo.server.net.ConnectionLimit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin port holds a request to the HTTP port's rules (RFC 9112): a Host, a transfer coding it
 * knows, a request line and headers within their limits, a head that arrives in time; dates every
 * answer; and takes no more connections than its limits allow.
 */
class AdminPortStrictnessTest {

    /** A fixed clock: the Date every answer carries is this instant's. */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-06T08:49:37Z"), ZoneOffset.UTC);
    private static final String DATE = "Fri, 06 Nov 2026 08:49:37 GMT";
    private static final long HEADER_TIMEOUT_MS = 300;

    private AdminServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private AdminServer serve(ConnectionLimit limit) throws Exception {
        AdminRouter router = new AdminRouter().add(
            Route.sync("GET", "/healthz", Scope.PUBLIC, request -> ApiReply.ok(Map.of("status", "ok"))));
        server = AdminServer.start(new InetSocketAddress("127.0.0.1", 0), router,
            AdminTokens.of("admin-token-0123456789abcdef", "read-token-0123456789abcdef"), new RondoMetrics(),
            1 << 20, null, null, HEADER_TIMEOUT_MS, CLOCK, SystemClocks.nanoClock(), limit);
        return server;
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.address().getPort());
        socket.setSoTimeout(5_000);
        return socket;
    }

    /** The answer's head (status line and headers), read off the socket up to its blank line. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        for (int b = in.read(); b >= 0; b = in.read()) {
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private String exchange(String request) throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return head(socket.getInputStream());
        }
    }

    private static int status(String head) {
        return Integer.parseInt(head.substring(9, 12));
    }

    @Test
    void everyAnswerIsDatedByTheClock() throws Exception {
        serve(ConnectionLimit.unlimited("admin"));
        String ok = exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        String missing = exchange("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n");

        assertEquals(200, status(ok), ok);
        assertTrue(ok.toLowerCase(Locale.ROOT).contains("\r\ndate: " + DATE.toLowerCase(Locale.ROOT) + "\r\n"), ok);
        assertEquals(404, status(missing), missing);
        assertTrue(missing.toLowerCase(Locale.ROOT).contains("\r\ndate: " + DATE.toLowerCase(Locale.ROOT) + "\r\n"),
            missing);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no Host|400|GET /healthz HTTP/1.1\\r\\n\\r\\n",
        "two Hosts|400|GET /healthz HTTP/1.1\\r\\nHost: a\\r\\nHost: b\\r\\n\\r\\n",
        "gzip, chunked|501|POST /healthz HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: gzip, chunked\\r\\n\\r\\n",
        "chunked, gzip|400|POST /healthz HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked, gzip\\r\\n\\r\\n",
        "HTTP/2.0|505|GET /healthz HTTP/2.0\\r\\nHost: a\\r\\n\\r\\n"})
    void aRequestThatBreaksRfc9112IsRefusedAsOnTheHttpPort(String what, int status, String request) throws Exception {
        serve(ConnectionLimit.unlimited("admin"));
        String head = exchange(request.replace("\\r\\n", "\r\n"));

        assertEquals(status, status(head), what + ": " + head);
        assertTrue(head.toLowerCase(Locale.ROOT).contains("connection: close"), head);
    }

    @Test
    void aLongRequestLineIs414AndLongHeadersAre431() throws Exception {
        serve(ConnectionLimit.unlimited("admin"));
        String line = exchange("GET /" + "a".repeat(9_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        String headers = exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nCookie: " + "c".repeat(17_000) + "\r\n\r\n");

        assertEquals(414, status(line), line);
        assertEquals(431, status(headers), headers);
    }

    @Test
    void aHeadDribbledInSlowerThanTheHeaderTimeoutIs408() throws Exception {
        serve(ConnectionLimit.unlimited("admin"));
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHo".getBytes(StandardCharsets.ISO_8859_1));
            String head = head(socket.getInputStream());

            assertEquals(408, status(head), head);
            String rest = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(rest.startsWith("408 Request Timeout"), "the body says why, and the connection closes: " + rest);
        }
    }

    @Test
    void aConnectionPastTheLimitFromOneAddressIs503AndThePlaceComesBackWhenOneCloses() throws Exception {
        serve(new ConnectionLimit("admin", "admin.", 10, 2));
        try (Socket first = connect(); Socket second = connect()) {
            assertTrue(second.isConnected());
            String refused;
            try (Socket third = connect()) {
                refused = head(third.getInputStream());
            }
            assertEquals(503, status(refused), refused);
            assertTrue(refused.contains("Retry-After: 1"), refused);
            assertTrue(refused.contains("Date: " + DATE), refused);
            first.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            assertEquals(200, status(head(first.getInputStream())), "an admitted connection is served");
        }
        await().atMost(Duration.ofSeconds(5))
            .until(() -> status(exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")) == 200);
    }
}

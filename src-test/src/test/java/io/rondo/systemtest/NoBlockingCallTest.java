package io.rondo.systemtest;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.rondo.client.protocol.Open;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.blockhound.BlockingOperationError;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No Netty event loop ever blocks: after every other system test (which run before this one in the
 * same JVM, each checked as its {@link RondoUnderTest} closes) and after this class has driven the
 * in-process admin API, {@link BlockingCallWatch} has recorded no blocking call. A canary event loop
 * that sleeps proves BlockHound, Netty's integration and the watch are live, so this test can fail.
 */
@Order(Integer.MAX_VALUE)
class NoBlockingCallTest {

    /** The name of the canary's event-loop threads, whose blocking calls are expected. */
    static final String CANARY = "rondo-blockhound-canary";

    private static final Pattern STREAM_ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    @TempDir
    Path temp;

    // A sleep on an event loop stalls every connection of that loop; the watch must see one, and say where.
    @Test
    void aSleepOnAnEventLoopIsReportedAndFailsInItsThread() throws Exception {
        assertTrue(BlockingCallWatch.nettyIntegrationFound(),
            "netty-common's BlockHound integration is on the class path: " + BlockingCallWatch.NETTY_INTEGRATION);
        EventLoopGroup canary = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(CANARY, true),
            NioIoHandler.newFactory());
        try {
            int mark = BlockingCallWatch.count();
            Future<Object> slept = canary.submit(() -> {
                TimeUnit.MILLISECONDS.sleep(1);
                return null;
            });

            ExecutionException failed = assertThrows(ExecutionException.class, () -> slept.get(10, TimeUnit.SECONDS));

            assertInstanceOf(BlockingOperationError.class, failed.getCause(), "the sleep fails in its own thread");
            List<BlockingCallWatch.BlockingCall> calls = BlockingCallWatch.since(mark).stream()
                .filter(call -> call.thread().startsWith(CANARY)).toList();
            assertEquals(1, calls.size(), "the canary's one sleep is recorded: " + calls);
            assertEquals("java.lang.Thread.sleep", calls.get(0).method());
            assertTrue(calls.get(0).stack().contains(NoBlockingCallTest.class.getName()),
                "the record says where the sleep was called from: " + calls.get(0).stack());
        } finally {
            canary.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    // The admin port's resources run on its event loop: none may wait for a disk, a file or a lock.
    @Test
    void theAdminApiNeverBlocksItsEventLoop() throws Exception {
        try (RondoUnderTest rondo = RondoUnderTest.start(temp, 300_000)) {
            String token = Files.readString(rondo.library.dataFolder().resolve("rondo/admin.token"),
                StandardCharsets.UTF_8).trim();
            Admin admin = new Admin(rondo.server.admin().url(), token);
            for (String path : List.of("/api/v1/info", "/api/v1/disks", "/api/v1/admission", "/api/v1/objects",
                "/api/v1/objects/docs/table.bin", "/api/v1/openapi.yaml", "/metrics", "/readyz", "/admin/")) {
                admin.send("GET", path, null);
            }
            try (RawStreamConnection stream = RawStreamConnection.connect(rondo.streamPort(), 0)) {
                stream.send(new Open(RondoUnderTest.CLIP.substring(1), 0, RondoUnderTest.PROFILE));
                stream.next();
                stream.next();
                Matcher id = STREAM_ID.matcher(admin.send("GET", "/api/v1/streams", null).body());
                assertTrue(id.find(), "the admin API lists the stream being served");
                admin.send("GET", "/api/v1/streams/" + id.group(1), null);
                admin.send("DELETE", "/api/v1/streams/" + id.group(1), null);
            }
            HttpResponse<String> policy = admin.send("GET", "/api/v1/policy", null);
            HttpResponse<String> patched = admin.client.send(admin.request("/api/v1/policy")
                .header("If-Match", policy.headers().firstValue("ETag").orElseThrow())
                .header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"admission\":{\"discreteReserve\":0.3}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, patched.statusCode(), "the policy changed: " + patched.body());
            admin.send("PUT", "/api/v1/objects/docs/uploaded.bin", new byte[200_000]);
            admin.send("POST", "/api/v1/objects/docs/uploaded.bin/move",
                "{\"to\":\"/docs/moved.bin\"}".getBytes(StandardCharsets.UTF_8));
            admin.send("DELETE", "/api/v1/objects/docs/moved.bin", null);
            HttpResponse<java.io.InputStream> events = admin.client.send(admin.request("/api/v1/events").build(),
                HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.InputStream body = events.body()) {
                assertTrue(body.read() >= 0, "the event stream says hello");
            }
            rondo.awaitQuiet(Duration.ofSeconds(10));
        }
    }

    // Every system test's server was checked as it closed; this one also covers event loops no server owns.
    @Test
    void noEventLoopBlockedInTheWholeRun() {
        BlockingCallWatch.assertNoneSince(0);
    }

    /** The admin API's client, with the admin token. */
    private record Admin(String url, String token, HttpClient client) {

        Admin(String url, String token) {
            this(url, token, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
        }

        HttpRequest.Builder request(String path) {
            return HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(10));
        }

        /** Sends a request and checks that it succeeded. */
        HttpResponse<String> send(String method, String path, byte[] body) throws Exception {
            HttpResponse<String> response = client.send(request(path).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
            assertTrue(response.statusCode() < 300, method + " " + path + ": " + response.statusCode() + " "
                + response.body());
            return response;
        }
    }
}

package io.rondo.server.cluster.sim;

import com.sun.net.httpserver.HttpServer;
import io.rondo.scheduler.time.SystemClocks;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The emulation against the real thing: Debian's HAProxy 2.6 with {@code balance uri} and
 * {@code hash-type consistent} in front of twelve loopback servers sends every object's URI to
 * the server {@link HaproxyChash} names, with all servers up and with one disabled. Skipped,
 * saying so, where haproxy is not installed, unless {@code -Drondo.haproxy.required=true}.
 */
class HaproxyAgreementTest {

    private static final int SERVERS = 12;
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    @TempDir
    Path folder;

    @Test
    void haproxySendsEachUriWhereTheEmulationSays() throws Exception {
        assumeHaproxy();
        List<HttpServer> servers = new ArrayList<>();
        try {
            for (int s = 0; s < SERVERS; s++) {
                servers.add(server(s));
            }
            List<String> uris = ClusterSimulation.library(400, new SplittableRandom(11));
            HaproxyChash ring = HaproxyChash.ofServers(SERVERS);
            assertAgrees(servers, -1, uris, ring);
            assertAgrees(servers, 4, uris, ring.withServerDown(4));
        } finally {
            servers.forEach(server -> server.stop(0));
        }
    }

    private void assertAgrees(List<HttpServer> servers, int disabled, List<String> uris, HaproxyChash ring)
        throws Exception {
        int port = freeLoopbackPort();
        StringBuilder config = new StringBuilder("""
            defaults
                mode http
                timeout connect 2s
                timeout client 10s
                timeout server 10s
            frontend objects
                bind 127.0.0.1:%d
                default_backend nodes
            backend nodes
                balance uri
                hash-type consistent
            """.formatted(port));
        for (int s = 0; s < servers.size(); s++) {
            config.append("    server ").append(ClusterSimulation.nodeName(s + 1)).append(" 127.0.0.1:")
                .append(servers.get(s).getAddress().getPort()).append(s == disabled ? " disabled" : "").append('\n');
        }
        Path file = folder.resolve("haproxy-" + disabled + ".cfg");
        Files.writeString(file, config, StandardCharsets.UTF_8);
        Process haproxy = new ProcessBuilder("haproxy", "-db", "-f", file.toString())
            .redirectErrorStream(true).redirectOutput(folder.resolve("haproxy-" + disabled + ".log").toFile()).start();
        try {
            awaitAccepting(port, haproxy);
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            int agreed = 0;
            for (String uri : uris) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + uri)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), uri);
                int expected = ring.server(HaproxyChash.uriKey(uri));
                assertEquals(Integer.toString(expected), response.body(), uri + " with server " + disabled + " down");
                agreed++;
            }
            assertEquals(uris.size(), agreed);
        } finally {
            haproxy.destroy();
            assertTrue(haproxy.waitFor(10, TimeUnit.SECONDS), "haproxy stops on SIGTERM");
        }
    }

    /** A loopback server that answers every GET with its index; no Nagle wait between head and body. */
    private static HttpServer server(int index) throws IOException {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] body = Integer.toString(index).getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    private static void assumeHaproxy() {
        boolean installed;
        try {
            Process version = new ProcessBuilder("haproxy", "-v").redirectErrorStream(true).start();
            installed = version.waitFor(10, TimeUnit.SECONDS) && version.exitValue() == 0
                && new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("2.6");
        } catch (IOException e) {
            installed = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        String missing = "HAProxy 2.6 is not installed (apt-get install haproxy)";
        if (Boolean.getBoolean("rondo.haproxy.required")) {
            assertTrue(installed, missing);
        }
        Assumptions.assumeTrue(installed, missing + "; skipping the check of the emulation against it");
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void awaitAccepting(int port, Process haproxy) {
        NanoClock clock = SystemClocks.nanoClock();
        long deadlineNs = clock.nanoTime() + START_TIMEOUT_NS;
        while (true) {
            try {
                new Socket(InetAddress.getLoopbackAddress(), port).close();
                return;
            } catch (IOException notYet) {
                assertTrue(haproxy.isAlive(), "haproxy exited: see its log in the test's folder");
                assertTrue(deadlineNs - clock.nanoTime() > 0, "haproxy did not listen on " + port + " in 10 s");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
    }
}

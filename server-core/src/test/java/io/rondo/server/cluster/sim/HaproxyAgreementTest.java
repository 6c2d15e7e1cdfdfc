package io.rondo.server.cluster.sim;

import com.sun.net.httpserver.HttpServer;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.cluster.haproxy.HaproxyBinary;
import io.rondo.server.cluster.haproxy.HaproxyProcess;
import io.rondo.server.cluster.haproxy.InstalledHaproxy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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

    @TempDir
    Path folder;

    @Test
    void haproxySendsEachUriWhereTheEmulationSays() throws Exception {
        HaproxyBinary binary = haproxy26();
        List<HttpServer> servers = new ArrayList<>();
        try {
            for (int s = 0; s < SERVERS; s++) {
                servers.add(server(s));
            }
            List<String> uris = ClusterSimulation.library(400, new SplittableRandom(11));
            HaproxyChash ring = HaproxyChash.ofServers(SERVERS);
            assertAgrees(binary, servers, -1, uris, ring);
            assertAgrees(binary, servers, 4, uris, ring.withServerDown(4));
        } finally {
            servers.forEach(server -> server.stop(0));
        }
    }

    private void assertAgrees(HaproxyBinary binary, List<HttpServer> servers, int disabled, List<String> uris,
                              HaproxyChash ring) throws Exception {
        int port = HaproxyProcess.freeLoopbackPort();
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
        HaproxyProcess haproxy = HaproxyProcess.start(binary, file, port, SystemClocks.nanoClock());
        try {
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
            haproxy.close();
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

    /** The installed haproxy if it is 2.6, whose consistent hash {@link HaproxyChash} emulates; else skips. */
    private static HaproxyBinary haproxy26() throws IOException, InterruptedException {
        HaproxyBinary binary = InstalledHaproxy.binary();
        Process version = new ProcessBuilder(binary.path().toString(), "-v").redirectErrorStream(true).start();
        String said = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean is26 = version.waitFor(10, TimeUnit.SECONDS) && version.exitValue() == 0
            && said.contains("version 2.6");
        String other = "the emulation is of HAProxy 2.6, and " + binary.path() + " says " + said.lines().findFirst()
            .orElse("nothing");
        if (Boolean.getBoolean("rondo.haproxy.required")) {
            assertTrue(is26, other);
        }
        Assumptions.assumeTrue(is26, other + "; skipping the check of the emulation against it");
        return binary;
    }
}

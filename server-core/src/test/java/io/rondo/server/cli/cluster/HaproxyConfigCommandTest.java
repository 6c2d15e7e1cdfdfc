package io.rondo.server.cli.cluster;

import io.rondo.server.cli.RondoCommand;
import io.rondo.server.cluster.haproxy.HaproxyBinary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo cluster haproxy-config}: both files written, and HAProxy's verdict on them where it is installed. */
class HaproxyConfigCommandTest {

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    @Test
    void writesTheConfigurationAndItsLuaAndHasHaproxyCheckThem(@TempDir Path folder) throws IOException {
        Path out = folder.resolve("haproxy");
        assertEquals(0, rondo("cluster", "haproxy-config", "--out", out.toString(),
            "--node", "node-a=127.0.0.1:18080:18554:19100", "--node", "node-b=localhost:18180:18654:19200",
            "--node", "node-c=[::1]:18280:18754:19300", "--bind", "127.0.0.1:18000", "--stats-bind", ":18404"),
            stderr.toString());

        String cfg = Files.readString(out.resolve("haproxy.cfg"));
        assertTrue(cfg.contains("    server node-c [::1]:18280 agent-port 19300\n"), cfg);
        assertTrue(cfg.contains("stats socket " + out.toAbsolutePath().resolve("haproxy.sock")), cfg);
        assertTrue(Files.readString(out.resolve("rondo-placement.lua")).contains("local replicas = 2"));
        String said = stdout.toString();
        assertTrue(said.contains("3 nodes, each object on 2 of them"), said);
        if (HaproxyBinary.find().isPresent()) {
            assertTrue(said.contains("Configuration file is valid"), said);
            assertFalse(said.contains("WARNING"), said);
        } else {
            assertTrue(said.contains("haproxy is not installed here: the configuration was not checked"), said);
        }
    }

    @Test
    void withoutNodesItTakesThoseTheConfigurationLists(@TempDir Path folder) throws IOException {
        Path config = Files.writeString(folder.resolve("rondo.yaml"), """
            cluster:
              replicas: 3
              nodes:
                - {name: node-a, host: 127.0.0.1, ports: {http: 18080, stream: 18554, admin: 18081, agent: 19100}}
                - {name: node-b, host: 127.0.0.1, ports: {http: 18180, stream: 18654, admin: 18181, agent: 19200}}
            """);
        Path out = folder.resolve("haproxy");
        assertEquals(0, rondo("cluster", "haproxy-config", "--out", out.toString(), "--config", config.toString()),
            stderr.toString());

        String cfg = Files.readString(out.resolve("haproxy.cfg"));
        assertTrue(cfg.contains("    server node-b 127.0.0.1:18180 agent-port 19200\n"), cfg);
        assertTrue(stdout.toString().contains("2 nodes, each object on 2 of them"), stdout.toString());
    }

    @Test
    void aNodeHaproxyCannotNameIsBadUsage(@TempDir Path folder) {
        assertEquals(2, rondo("cluster", "haproxy-config", "--out", folder.toString(),
            "--node", "node_a=127.0.0.1:18080:18554:19100"));
        assertTrue(stderr.toString().contains("letters, digits, '-' and '.'"), stderr.toString());
        assertEquals(2, rondo("cluster", "haproxy-config", "--out", folder.toString(), "--node", "a=h:1:2"));
        assertTrue(stderr.toString().contains("'a=h:1:2' is not NAME=HOST:HTTP:STREAM:AGENT"), stderr.toString());
    }
}

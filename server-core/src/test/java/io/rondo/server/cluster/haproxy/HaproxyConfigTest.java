package io.rondo.server.cluster.haproxy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the configuration holds for a given cluster, and the clusters it refuses to write one for. */
class HaproxyConfigTest {

    private static List<HaproxyNode> nodes(int count) {
        List<HaproxyNode> nodes = new ArrayList<>();
        for (int i = count - 1; i >= 0; i--) {
            nodes.add(new HaproxyNode("node-" + i, "10.0.0." + (i + 1), 8080, 8554, 9100));
        }
        return nodes;
    }

    @Test
    void thereIsOneBackendPerOwnerSetEachWithItsReplicas(@TempDir Path folder) throws IOException {
        HaproxyConfig config = new HaproxyConfig(nodes(5), 3, ":8000").withStreamBind("*:8001");
        Path written = config.write(folder);
        String cfg = Files.readString(written);

        List<String> backends = cfg.lines().filter(line -> line.startsWith("backend owners_")).toList();
        assertEquals(10, backends.size(), "C(5, 3) owner sets");
        assertTrue(backends.contains("backend owners_node-0_node-2_node-4"), backends.toString());
        assertEquals(5 + 10 * 3 + 5, cfg.lines().filter(line -> line.startsWith("    server ")).count(),
            "every node in the any-node and stream backends, three in each owner set");
        assertTrue(cfg.contains("lua-load-per-thread " + folder.toAbsolutePath().resolve(HaproxyConfig.LUA_FILE)));
        assertTrue(Files.readString(folder.resolve(HaproxyConfig.LUA_FILE))
            .contains("local nodes = { \"node-0\", \"node-1\", \"node-2\", \"node-3\", \"node-4\" }"));
        assertEquals("owners_node-0_node-3", HaproxyConfig.ownerBackend(List.of("node-3", "node-0")));
    }

    @Test
    void replicasBeyondTheNodesMeanEveryNodeHoldsEverything() {
        HaproxyConfig config = new HaproxyConfig(nodes(2), 3, "127.0.0.1:8000");
        assertEquals(2, config.effectiveReplicas());
        assertTrue(config.haproxyCfg(Path.of("/x.lua")).contains("backend owners_node-0_node-1\n"));
        assertTrue(config.placementLua().contains("local replicas = 2\n"));
    }

    @Test
    void namesAddressesAndClustersHaproxyCannotTakeAreRefused() {
        String why = assertThrows(IllegalArgumentException.class,
            () -> new HaproxyNode("node_a", "10.0.0.1", 8080, 8554, 9100)).getMessage();
        assertTrue(why.contains("letters, digits, '-' and '.'"), why);
        assertThrows(IllegalArgumentException.class, () -> new HaproxyNode("a", "10.0.0.1 x", 8080, 8554, 9100));
        assertThrows(IllegalArgumentException.class, () -> new HaproxyNode("a", "10.0.0.1", 8080, 0, 9100));
        List<HaproxyNode> twice = List.of(nodes(1).get(0), nodes(1).get(0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HaproxyConfig(twice, 2, ":8000"))
            .getMessage().contains("two nodes are named node-0"));
        assertThrows(IllegalArgumentException.class, () -> new HaproxyConfig(List.of(), 2, ":8000"));
        assertThrows(IllegalArgumentException.class, () -> new HaproxyConfig(nodes(3), 0, ":8000"));
        assertThrows(IllegalArgumentException.class, () -> new HaproxyConfig(nodes(3), 2, "8000"));
        assertThrows(IllegalArgumentException.class, () -> new HaproxyConfig(nodes(3), 2, ":70000"));
        String tooMany = assertThrows(IllegalArgumentException.class, () -> new HaproxyConfig(nodes(60), 4, ":8000"))
            .getMessage();
        assertTrue(tooMany.contains("more than 10000 owner sets"), tooMany);
    }
}

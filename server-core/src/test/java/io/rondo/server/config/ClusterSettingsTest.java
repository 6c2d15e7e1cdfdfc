package io.rondo.server.config;

import io.rondo.server.cluster.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterSettingsTest {

    @TempDir
    Path dir;

    private RondoConfig load(String text) throws IOException {
        return RondoConfig.load(Files.writeString(dir.resolve("rondo.yaml"), text));
    }

    @Test
    void withoutASectionRondoIsOneNodeThatHoldsEverything() {
        ClusterSettings settings = RondoConfig.defaults().clusterSettings();
        assertFalse(settings.enabled());
        assertEquals(ClusterSettings.defaults(), settings);
        assertTrue(Cluster.single().holds("/anything"));
    }

    @Test
    void listedNodesTakeTheirPortsAndTheRestTheDefaults() throws IOException {
        ClusterSettings settings = load("""
            cluster:
              replicas: 3
              copyRate: 4M
              nodes:
                - name: b
                  host: 10.0.0.2
                  ports: {http: 9280, stream: 9654}
                - name: a
                  host: 10.0.0.1
            """).clusterSettings();
        assertTrue(settings.enabled());
        assertEquals(3, settings.replicas());
        assertEquals(4L << 20, settings.copyBytesPerSecond());
        assertEquals(new ClusterSettings.Ports(9280, 9654, 8081, 8082), settings.node("b").ports());
        Cluster cluster = Cluster.of(settings, "b");
        assertEquals(List.of("a", "b"), cluster.names(), "by name, whatever the file's order");
        assertEquals(List.of("a"), cluster.peers().stream().map(ClusterSettings.Node::name).toList());
        assertEquals(2, cluster.owners("/x").size(), "all of them where there are fewer nodes than replicas");
    }

    @Test
    void aDnsNameIsResolvedToTheNodesAndResolvedAgainOnRefresh() throws IOException {
        ClusterSettings settings = load("cluster:\n  dns: rondo.media.svc\n  ports: {http: 9000}\n").clusterSettings();
        List<List<InetAddress>> answers = new java.util.ArrayList<>(List.of(
            List.of(InetAddress.getByName("10.1.0.7"), InetAddress.getByName("10.1.0.5")),
            List.of(InetAddress.getByName("10.1.0.5"))));
        Cluster cluster = Cluster.of(settings, "10.1.0.5", name -> answers.remove(0));
        assertEquals(List.of("10.1.0.5", "10.1.0.7"), cluster.names());
        assertEquals(9000, cluster.self().orElseThrow().ports().http());
        cluster.refresh();
        assertEquals(List.of("10.1.0.5"), cluster.names(), "a node gone from the name is gone from the cluster");
    }

    @Test
    void badClustersAreRefusedNamingTheKey() throws IOException {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load("""
            cluster:
              nodes:
                - {name: a, host: h}
                - {name: a, host: i}
            """)).getMessage().contains("the name a is given twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load("""
            cluster:
              nodes:
                - {name: "a b", host: h}
            """)).getMessage().contains("a node's name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load("""
            cluster:
              dns: x
              nodes:
                - {name: a, host: h}
            """)).getMessage().contains("nodes or dns, not both"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> load("cluster:\n  replicas: 0\n"))
            .getMessage().contains("cluster.replicas"));
        ClusterSettings two = load("cluster:\n  nodes:\n    - {name: a, host: h}\n").clusterSettings();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cluster.of(two, "z")).getMessage()
            .contains("no node named 'z'"));
    }
}

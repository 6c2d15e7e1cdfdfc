package io.rondo.server.cluster;

import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.RondoContext;
import io.rondo.server.RondoServer;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.config.ClusterSettings;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nodes of one cluster in this JVM, each a whole server on its own data folder and loopback
 * ports, sharing the admin token, for the cluster's tests.
 */
final class LocalCluster implements AutoCloseable {

    static final String ADMIN = "admin-token-of-the-cluster-tests";
    static final String READ = "read-token-of-the-cluster-tests";

    private final ClusterSettings settings;
    private final Path folder;
    private final Map<String, Library> libraries = new LinkedHashMap<>();
    private final Map<String, RondoServer> servers = new LinkedHashMap<>();

    private LocalCluster(ClusterSettings settings, Path folder) {
        this.settings = settings;
        this.folder = folder;
    }

    /** A cluster of {@code names}, {@code replicas} copies of each object, its data under {@code folder}. */
    static LocalCluster of(Path folder, int replicas, String... names) throws IOException {
        List<ClusterSettings.Node> nodes = new ArrayList<>();
        for (String name : names) {
            nodes.add(new ClusterSettings.Node(name, "127.0.0.1",
                new ClusterSettings.Ports(freePort(), freePort(), freePort(), freePort())));
        }
        return new LocalCluster(new ClusterSettings(nodes, null, ClusterSettings.Ports.DEFAULT, replicas, 100,
            64L << 20), folder);
    }

    /** Starts every node not running. */
    LocalCluster start() throws IOException, InterruptedException {
        for (ClusterSettings.Node node : settings.nodes()) {
            if (!servers.containsKey(node.name())) {
                start(node.name());
            }
        }
        return this;
    }

    /** Starts node {@code name} on its data folder (made at its first start). */
    RondoServer start(String name) throws IOException, InterruptedException {
        ClusterSettings.Node node = settings.node(name);
        Library library = libraries.computeIfAbsent(name, key -> open(folder.resolve(key)));
        RondoServer server = RondoServer.start(new RondoContext().library(library).model(DiskProfile.paperDisk())
            .tokens(AdminTokens.of(ADMIN, READ)).cluster(Cluster.of(settings, name))
            .httpAddress(new InetSocketAddress(node.host(), node.ports().http()))
            .streamAddress(new InetSocketAddress(node.host(), node.ports().stream()))
            .adminAddress(new InetSocketAddress(node.host(), node.ports().admin())));
        servers.put(name, server);
        return server;
    }

    /** Stops node {@code name}, keeping its data folder. */
    void stop(String name) {
        servers.remove(name).close();
        libraries.remove(name).close();
    }

    ClusterSettings settings() {
        return settings;
    }

    /** A cluster as a command line outside it sees it. */
    Cluster outside() {
        return Cluster.of(settings, null);
    }

    Library library(String name) {
        return libraries.get(name);
    }

    /** The admin API's base URL of node {@code name}. */
    String admin(String name) {
        ClusterSettings.Node node = settings.node(name);
        return "http://127.0.0.1:" + node.ports().admin();
    }

    /** The HTTP port's base URL of node {@code name}. */
    String http(String name) {
        return "http://127.0.0.1:" + settings.node(name).ports().http();
    }

    private static Library open(Path data) {
        try {
            return Library.open(RondoConfig.defaults(), data, SystemClocks.utc());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        new ArrayList<>(servers.keySet()).forEach(this::stop);
    }
}

package io.rondo.benchmarks.preset.cluster;

import io.rondo.benchmarks.rig.Nginx;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.server.cluster.haproxy.HaproxyBinary;
import io.rondo.server.cluster.haproxy.HaproxyConfig;
import io.rondo.server.cluster.haproxy.HaproxyNode;
import io.rondo.server.cluster.haproxy.HaproxyProcess;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A cluster of Rondo nodes on this machine as a person runs one (docs/cluster.md): one {@code rondo.yaml}
 * listing every node on free loopback ports, one admin token file they share, each node {@code rondo serve
 * --node NAME --emulate} in a JVM of its own on a data folder of its own (so each has its own emulated paper
 * disk and its own disk time), and HAProxy in front on the configuration {@code rondo cluster haproxy-config}
 * writes. Closing it stops HAProxy and every node still running.
 */
final class ClusterRig implements AutoCloseable {

    /** The TCP stream backend's name in the configuration HAProxy runs. */
    static final String STREAM_BACKEND = "stream_nodes";

    private static final Duration READY_LIMIT = Duration.ofSeconds(30);

    /** One node: its name, its ports, and its process while it runs. */
    record Node(String name, int http, int stream, int admin, int agent, ServeProcess process) {
    }

    private final Map<String, Node> nodes;
    private final HaproxyProcess haproxy;
    private final Path haproxySocket;
    private final int httpPort;
    private final int streamPort;
    private final NodeApi api;
    private final NanoClock clock;

    private ClusterRig(Map<String, Node> nodes, HaproxyProcess haproxy, Path haproxySocket, int httpPort,
                       int streamPort, NodeApi api, NanoClock clock) {
        this.nodes = nodes;
        this.haproxy = haproxy;
        this.haproxySocket = haproxySocket;
        this.httpPort = httpPort;
        this.streamPort = streamPort;
        this.api = api;
        this.clock = clock;
    }

    /**
     * Starts {@code count} nodes (node-a, node-b...) with {@code replicas} copies of each object and
     * HAProxy in front, and returns once HAProxy's checks find every node up.
     *
     * @param folder where the configuration, the token, the nodes' data and every log go (made afresh)
     * @param roundMs the nodes' {@code scheduler.roundMs}
     * @param ceiling the nodes' {@code buffers.ceiling}
     */
    static ClusterRig start(Path folder, int count, int replicas, long roundMs, String ceiling, PrintWriter log,
                            NanoClock clock) throws Exception {
        Files.createDirectories(folder);
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        Path tokenFile = Files.writeString(folder.resolve("admin.token").toAbsolutePath(), token + "\n");
        StringBuilder yaml = new StringBuilder(String.format(Locale.ROOT, """
            scheduler:
              roundMs: %d
              combination: false
            buffers:
              ceiling: %s
            admin:
              tokenFile: %s
            cluster:
              replicas: %d
              refresh: 500ms
              nodes:
            """, roundMs, ceiling, tokenFile, replicas));
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int[] p = {Nginx.freeLoopbackPort(), Nginx.freeLoopbackPort(), Nginx.freeLoopbackPort(),
                Nginx.freeLoopbackPort()};
            ports.add(p);
            yaml.append(String.format(Locale.ROOT, "    - {name: %s, host: 127.0.0.1, ports: {http: %d, stream: %d, "
                + "admin: %d, agent: %d}}%n", name(i), p[0], p[1], p[2], p[3]));
        }
        Path config = Files.writeString(folder.resolve("rondo.yaml"), yaml);
        log.printf(Locale.ROOT, "  starting %d node%s and HAProxy in %s%n", count, count == 1 ? "" : "s", folder);
        Map<String, Node> nodes = new LinkedHashMap<>();
        ExecutorService starts = Executors.newFixedThreadPool(count);
        try {
            List<Future<ServeProcess>> started = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = name(i);
                started.add(starts.submit(() -> RondoCheckout.serveNode(folder.resolve(name), config, name,
                    folder.resolve(name + ".log"), clock)));
            }
            for (int i = 0; i < count; i++) {
                int[] p = ports.get(i);
                nodes.put(name(i), new Node(name(i), p[0], p[1], p[2], p[3], started.get(i).get()));
            }
        } catch (Exception e) {
            nodes.values().forEach(node -> node.process().close());
            throw e;
        } finally {
            starts.shutdownNow();
        }
        List<HaproxyNode> behind = nodes.values().stream()
            .map(node -> new HaproxyNode(node.name(), "127.0.0.1", node.http(), node.stream(), node.agent())).toList();
        int httpPort = Nginx.freeLoopbackPort();
        int streamPort = Nginx.freeLoopbackPort();
        Path haproxyFolder = folder.resolve("haproxy").toAbsolutePath();
        Path socket = haproxyFolder.resolve("haproxy.sock");
        HaproxyProcess haproxy;
        try {
            HaproxyBinary binary = HaproxyBinary.find().orElseThrow(() ->
                new IOException("haproxy is not installed (apt-get install haproxy)"));
            haproxy = HaproxyProcess.start(binary, new HaproxyConfig(behind, replicas, "127.0.0.1:" + httpPort)
                .withStreamBind("127.0.0.1:" + streamPort).withStatsSocket(socket), haproxyFolder, streamPort, clock);
        } catch (IOException e) {
            nodes.values().forEach(node -> node.process().close());
            throw e;
        }
        ClusterRig rig = new ClusterRig(nodes, haproxy, socket, httpPort, streamPort, new NodeApi(token), clock);
        rig.awaitReady();
        return rig;
    }

    private static String name(int index) {
        return "node-" + (char) ('a' + index);
    }

    /** HAProxy's TCP stream port. */
    int streamPort() {
        return streamPort;
    }

    /** The nodes still running, by name. */
    List<String> running() {
        return nodes.values().stream().filter(node -> node.process().handle().isAlive()).map(Node::name).toList();
    }

    /**
     * Uploads {@code clip} as {@code name} through the first node's admin API, which stores it on its
     * owners; returns the nodes that hold it (its answer's {@code Rondo-Nodes}).
     */
    String upload(Path clip, String name) throws IOException {
        return api.upload(adminUrl(nodes.keySet().iterator().next()), clip, name);
    }

    /** Returns once every running node's cluster-wide listing names each of {@code names}. */
    void awaitListed(List<String> names) throws IOException {
        long giveUpNs = clock.nanoTime() + READY_LIMIT.toNanos();
        for (String node : running()) {
            while (!api.listsAll(adminUrl(node), names)) {
                if (clock.nanoTime() - giveUpNs > 0) {
                    throw new IOException(node + " does not list every uploaded object within "
                        + READY_LIMIT.toSeconds() + " s");
                }
                pause(100);
            }
        }
    }

    /** Each running node's meters now, by name. */
    Map<String, NodeApi.Meters> meters() throws IOException {
        Map<String, NodeApi.Meters> meters = new LinkedHashMap<>();
        for (String node : running()) {
            meters.put(node, api.meters(adminUrl(node)));
        }
        return meters;
    }

    /** Returns once no running node has a stream in service (the last ones closed), or fails. */
    void awaitIdle() throws IOException {
        long giveUpNs = clock.nanoTime() + READY_LIMIT.toNanos();
        while (meters().values().stream().anyMatch(meter -> meter.streams() > 0)) {
            if (clock.nanoTime() - giveUpNs > 0) {
                throw new IOException("streams still in service " + READY_LIMIT.toSeconds() + " s after they were "
                    + "closed: " + meters());
            }
            pause(100);
        }
    }

    /** Kills node {@code name} as {@code kill -9} does. */
    void kill(String name) throws InterruptedException {
        nodes.get(name).process().kill();
    }

    /** {@code GET /NAME} through HAProxy's HTTP port: the status and the SHA-256 of the body. */
    NodeApi.Fetched get(String name) throws IOException {
        return api.get("http://127.0.0.1:" + httpPort, name);
    }

    private String adminUrl(String node) {
        return nodes.get(node).process().adminUrl();
    }

    /**
     * Returns once HAProxy takes new streams on every running node: its checks find each up, and its agent no
     * longer says {@code drain} (a node that was full says so until its next agent check).
     */
    void awaitReady() throws IOException {
        long giveUpNs = clock.nanoTime() + READY_LIMIT.toNanos();
        while (true) {
            Map<String, String> statuses = streamServerStatuses();
            if (running().stream().allMatch(node -> "UP".equals(statuses.get(node)))) {
                return;
            }
            if (clock.nanoTime() - giveUpNs > 0) {
                throw new IOException("HAProxy does not take streams on every node within " + READY_LIMIT.toSeconds()
                    + " s: " + statuses + "\n" + haproxy.printed());
            }
            pause(100);
        }
    }

    /**
     * Each server of the stream backend and its status now, as HAProxy's runtime API shows it: {@code UP},
     * {@code DRAIN} (its agent says it is full or drained), {@code DOWN}...
     */
    private Map<String, String> streamServerStatuses() throws IOException {
        Map<String, String> statuses = new TreeMap<>();
        for (Map<String, String> server : HaproxyProcess.serverStats(haproxySocket)) {
            if (server.get("pxname").equals(STREAM_BACKEND)) {
                statuses.put(server.get("svname"), server.get("status"));
            }
        }
        return statuses;
    }

    /** Waits {@code ms} milliseconds; an interrupt ends the run. */
    static void pause(long ms) throws IOException {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the cluster bench ran");
        }
    }

    @Override
    public void close() {
        haproxy.close();
        nodes.values().forEach(node -> node.process().close());
    }

    /** What HAProxy printed, for a failure's message. */
    String haproxyLog() throws IOException {
        return haproxy.printed();
    }
}

package io.rondo.server.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Several Rondo nodes as one service, {@code cluster:} in {@code rondo.yaml} (papers/004 Section 6).
 * Each node serves its own disks; an object lives on the {@code replicas} nodes that rendezvous
 * hashing of its name picks. The nodes are listed, or are the addresses a DNS name resolves to
 * (a Kubernetes headless service), each on the same ports. Without either, Rondo is one node.
 *
 * @param nodes     {@code cluster.nodes}: each node's name, host and ports
 * @param dns       {@code cluster.dns}: a name whose addresses are the nodes, or null
 * @param dnsPorts  {@code cluster.ports}: the ports of every node {@code dns} finds
 * @param replicas  {@code cluster.replicas}: how many nodes hold each object
 * @param refreshMs {@code cluster.refresh}: how often {@code dns} is resolved again and the peers' agents are read
 * @param copyBytesPerSecond {@code cluster.copyRate}: the most a node's copies to other nodes read a second
 */
public record ClusterSettings(List<Node> nodes, String dns, Ports dnsPorts, int replicas, long refreshMs,
                              long copyBytesPerSecond) {

    /** {@code cluster.replicas}: an object survives the loss of any one node. */
    public static final int DEFAULT_REPLICAS = 2;
    /** {@code cluster.refresh}. */
    public static final long DEFAULT_REFRESH_MS = 2_000;
    /** {@code cluster.copyRate}: 16 MB/s, a small share of a disk's round. */
    public static final long DEFAULT_COPY_RATE = 16L << 20;
    /** The agent port of a node {@code cluster.dns} finds, unless {@code cluster.ports.agent} says otherwise. */
    public static final int DEFAULT_AGENT_PORT = 8082;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]{0,62}");

    /**
     * One node, as {@code cluster.nodes} lists it.
     *
     * @param name   its name, unique in the cluster: letters, digits, {@code . -}; it names the node in
     *               placement, so renaming a node moves its objects
     * @param host   the host or address the other nodes and HAProxy reach it at
     * @param ports  its HTTP, stream, admin and agent ports
     */
    public record Node(String name, String host, Ports ports) {

        /** Checks the node's name and host. */
        public Node {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("cluster.nodes: a node's name is 1 to 63 letters, digits, '.' "
                    + "or '-' (HAProxy's names are made of them), starting with a letter or digit, was '" + name + "'");
            }
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("cluster.nodes: node " + name + " needs a host");
            }
        }
    }

    /**
     * A node's ports.
     *
     * @param http   the HTTP port: objects, folder pages, the player and the stream protocol's WebSocket
     * @param stream the stream protocol's TCP port
     * @param admin  the admin port (the REST API the nodes copy objects through)
     * @param agent  the port HAProxy's agent check reads the node's headroom from
     */
    public record Ports(int http, int stream, int admin, int agent) {

        /** The ports of a default server, with the agent on {@value #DEFAULT_AGENT_PORT}. */
        public static final Ports DEFAULT = new Ports(8080, 8554, 8081, DEFAULT_AGENT_PORT);

        /** Checks every port. */
        public Ports {
            for (int port : new int[] {http, stream, admin, agent}) {
                if (port < 1 || port > 65535) {
                    throw new IllegalArgumentException("cluster: a node's ports must be from 1 to 65535, was "
                        + port);
                }
            }
        }
    }

    /** Checks every key once. */
    public ClusterSettings {
        nodes = List.copyOf(nodes);
        Settings.positive(replicas, "cluster.replicas");
        Settings.positive(refreshMs, "cluster.refresh");
        Settings.positive(copyBytesPerSecond, "cluster.copyRate");
        if (!nodes.isEmpty() && dns != null) {
            throw new IllegalArgumentException("cluster: give nodes or dns, not both");
        }
        Set<String> names = new HashSet<>();
        for (Node node : nodes) {
            if (!names.add(node.name())) {
                throw new IllegalArgumentException("cluster.nodes: the name " + node.name() + " is given twice");
            }
        }
    }

    /** Whether there is a cluster at all: nodes listed or a DNS name to find them by. */
    public boolean enabled() {
        return !nodes.isEmpty() || dns != null;
    }

    /** The listed node named {@code name}. */
    public Node node(String name) {
        for (Node node : nodes) {
            if (node.name().equals(name)) {
                return node;
            }
        }
        throw new IllegalArgumentException("cluster.nodes has no node named '" + name + "'; it has "
            + nodes.stream().map(Node::name).toList());
    }

    /** No cluster: one node. */
    public static ClusterSettings defaults() {
        return new ClusterSettings(List.of(), null, Ports.DEFAULT, DEFAULT_REPLICAS, DEFAULT_REFRESH_MS,
            DEFAULT_COPY_RATE);
    }

    /** The section as written: what it says, the defaults for the rest. */
    static ClusterSettings read(Section written) {
        List<Node> nodes = new ArrayList<>();
        for (NodeSection node : Settings.orDefault(written.nodes(), List.<NodeSection>of())) {
            nodes.add(new Node(node.name(), node.host(), ports(node.ports(), "cluster.nodes." + node.name())));
        }
        String dns = written.dns() == null || written.dns().isBlank() ? null : written.dns().strip();
        return new ClusterSettings(nodes, dns, ports(written.ports(), "cluster.ports"),
            Settings.orDefault(written.replicas(), DEFAULT_REPLICAS),
            Settings.duration(written.refresh(), "cluster.refresh", DEFAULT_REFRESH_MS),
            written.copyRate() == null ? DEFAULT_COPY_RATE : ByteSizes.parse(written.copyRate(), "cluster.copyRate"));
    }

    private static Ports ports(PortsSection written, String key) {
        if (written == null) {
            return Ports.DEFAULT;
        }
        Ports d = Ports.DEFAULT;
        try {
            return new Ports(Settings.orDefault(written.http(), d.http()),
                Settings.orDefault(written.stream(), d.stream()), Settings.orDefault(written.admin(), d.admin()),
                Settings.orDefault(written.agent(), d.agent()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    /** {@code cluster:} as the file writes it; a key left out is null. */
    record Section(List<NodeSection> nodes, String dns, PortsSection ports, Integer replicas, String refresh,
                   String copyRate) {
        static final Section EMPTY = new Section(null, null, null, null, null, null);
    }

    /** One {@code cluster.nodes} entry as written. */
    record NodeSection(String name, String host, PortsSection ports) {
    }

    /** Ports as written. */
    record PortsSection(Integer http, Integer stream, Integer admin, Integer agent) {
    }
}

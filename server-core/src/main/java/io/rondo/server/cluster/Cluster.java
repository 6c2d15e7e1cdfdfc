package io.rondo.server.cluster;

import io.rondo.content.cluster.Rendezvous;
import io.rondo.server.config.ClusterSettings;
import io.rondo.server.config.ClusterSettings.Node;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The nodes of a cluster as this node knows them, and which of them hold an object. Without a
 * {@code cluster:} section it is one node, this one, holding everything. The nodes are
 * {@code cluster.nodes}, or the addresses {@code cluster.dns} resolves to, looked up again by
 * {@link #refresh()}; the view in force is swapped whole, so a reader on any thread sees one
 * membership or the next, never a mixture.
 */
public final class Cluster {

    /** Resolves a DNS name to its addresses; {@link InetAddress#getAllByName} but for tests. */
    @FunctionalInterface
    public interface Resolver {
        /** The addresses of {@code name}. */
        List<InetAddress> resolve(String name) throws UnknownHostException;
    }

    private static final Resolver DNS = name -> List.of(InetAddress.getAllByName(name));

    private final ClusterSettings settings;
    private final String self;
    private final Resolver resolver;
    private volatile List<Node> nodes;

    private Cluster(ClusterSettings settings, String self, Resolver resolver, List<Node> nodes) {
        this.settings = settings;
        this.self = self;
        this.resolver = resolver;
        this.nodes = nodes;
    }

    /** One node alone: it holds every object. */
    public static Cluster single() {
        return new Cluster(ClusterSettings.defaults(), null, DNS, List.of());
    }

    /**
     * The cluster {@code settings} describe, as node {@code self} sees it.
     *
     * @throws IllegalArgumentException if the settings name no cluster, {@code self} is not among its nodes,
     *                                  or its DNS name does not resolve
     */
    public static Cluster of(ClusterSettings settings, String self) {
        return of(settings, self, DNS);
    }

    /** As {@link #of(ClusterSettings, String)}, resolving {@code cluster.dns} with {@code resolver}. */
    public static Cluster of(ClusterSettings settings, String self, Resolver resolver) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("rondo.yaml has no cluster: section (cluster.nodes or cluster.dns)");
        }
        Cluster cluster = new Cluster(settings, self, resolver, List.of());
        cluster.nodes = cluster.lookUp();
        if (self != null) {
            cluster.node(self).orElseThrow(() -> new IllegalArgumentException("the cluster has no node named '"
                + self + "'; it has " + cluster.names()));
        }
        return cluster;
    }

    /** Whether this node is one of several. */
    public boolean enabled() {
        return settings.enabled();
    }

    /** How many nodes hold each object. */
    public int replicas() {
        return settings.replicas();
    }

    /** The settings the cluster was made from. */
    public ClusterSettings settings() {
        return settings;
    }

    /** This node's name, or empty where it is alone or is a command line outside the cluster. */
    public Optional<String> selfName() {
        return Optional.ofNullable(self);
    }

    /** This node, among the cluster's. */
    public Optional<Node> self() {
        return self == null ? Optional.empty() : node(self);
    }

    /** Every node, by name. */
    public List<Node> nodes() {
        return nodes;
    }

    /** The nodes' names, sorted. */
    public List<String> names() {
        return nodes.stream().map(Node::name).toList();
    }

    /** Every node but this one. */
    public List<Node> peers() {
        return nodes.stream().filter(node -> !node.name().equals(self)).toList();
    }

    /** The node named {@code name}. */
    public Optional<Node> node(String name) {
        return nodes.stream().filter(node -> node.name().equals(name)).findFirst();
    }

    /** The nodes that hold {@code object}, the most preferred first; this node alone where there is no cluster. */
    public List<Node> owners(String object) {
        List<Node> owners = new ArrayList<>(settings.replicas());
        for (String name : Rendezvous.owners(object, names(), settings.replicas())) {
            node(name).ifPresent(owners::add);
        }
        return owners;
    }

    /** Whether this node is one that holds {@code object}; always where there is no cluster. */
    public boolean holds(String object) {
        return !enabled() || self == null || Rendezvous.owns(self, object, names(), settings.replicas());
    }

    /**
     * Resolves {@code cluster.dns} again; the nodes it finds replace the old. A listed cluster does not change.
     *
     * @throws IllegalArgumentException if the name no longer resolves; the nodes known stay
     */
    public void refresh() {
        if (settings.dns() != null) {
            nodes = lookUp();
        }
    }

    private List<Node> lookUp() {
        if (settings.dns() == null) {
            return settings.nodes().stream().sorted(Comparator.comparing(Node::name)).toList();
        }
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(settings.dns());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cluster.dns: " + settings.dns() + " does not resolve: "
                + e.getMessage(), e);
        }
        List<Node> found = new ArrayList<>();
        for (InetAddress address : addresses) {
            String host = address.getHostAddress();
            found.add(new Node(nameOf(host), host, settings.dnsPorts()));
        }
        found.sort(Comparator.comparing(Node::name));
        return List.copyOf(found);
    }

    /** A node found by DNS is named by its address, with ':' and '%' (IPv6) made '-'. */
    public static String nameOf(String address) {
        return address.replace(':', '-').replace('%', '-');
    }
}

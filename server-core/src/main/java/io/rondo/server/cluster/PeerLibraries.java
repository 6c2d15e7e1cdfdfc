package io.rondo.server.cluster;

import io.rondo.server.config.ClusterSettings.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the other nodes hold, as their listings said at the last {@link #refresh()}: folder pages
 * and {@code /api/v1/objects} show the whole cluster's library from it, without asking the other
 * nodes while a request waits. A node that does not answer keeps what it said last; one that left
 * the cluster is forgotten. Refreshed on the cluster's own thread every {@code cluster.refresh}.
 */
public final class PeerLibraries {

    private static final Logger LOG = LoggerFactory.getLogger(PeerLibraries.class);

    /** One object somewhere in the cluster, and the other nodes that hold it. */
    public record Held(NodeCopies.Listed object, List<String> nodes) {
    }

    private final Cluster cluster;
    private final NodeCopies copies;
    private final Map<String, List<NodeCopies.Listed>> byNode = new HashMap<>();
    private final Map<String, Boolean> reachable = new HashMap<>();
    private volatile TreeMap<String, Held> objects = new TreeMap<>();

    /**
     * @param cluster the nodes
     * @param copies  the calls that list them
     */
    public PeerLibraries(Cluster cluster, NodeCopies copies) {
        this.cluster = cluster;
        this.copies = copies;
    }

    /** Lists every other node again; on one thread at a time. */
    public synchronized void refresh() {
        List<String> names = new ArrayList<>();
        for (Node peer : cluster.peers()) {
            names.add(peer.name());
            try {
                byNode.put(peer.name(), copies.list(peer));
                if (!Boolean.TRUE.equals(reachable.put(peer.name(), true))) {
                    LOG.info("cluster: {} lists {} objects", peer.name(), byNode.get(peer.name()).size());
                }
            } catch (IOException e) {
                if (!Boolean.FALSE.equals(reachable.put(peer.name(), false))) {
                    LOG.warn("cluster: {} does not answer ({}); its objects are listed as it last said", peer.name(),
                        e.getMessage());
                }
            }
        }
        byNode.keySet().retainAll(names);
        reachable.keySet().retainAll(names);
        TreeMap<String, Held> merged = new TreeMap<>();
        byNode.forEach((node, listed) -> {
            for (NodeCopies.Listed object : listed) {
                Held held = merged.computeIfAbsent(object.name(), name -> new Held(object, new ArrayList<>()));
                held.nodes().add(node);
            }
        });
        objects = merged;
    }

    /** Every object the other nodes hold whose name starts with {@code prefix}, by name. */
    public List<Held> withPrefix(String prefix) {
        return List.copyOf(objects.subMap(prefix, true, prefix + Character.MAX_VALUE, false).values());
    }

    /** Whether a node last answered its listing. */
    public synchronized boolean reachable(String node) {
        return Boolean.TRUE.equals(reachable.get(node));
    }
}

package io.rondo.server.cluster;

import io.rondo.server.cluster.agent.AgentLine;
import io.rondo.server.cluster.agent.AgentProbe;
import io.rondo.server.config.ClusterSettings.Node;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The other nodes' headroom as their agents last said it, the line HAProxy reads too
 * (docs/cluster-agent.md): read on the cluster's thread every {@code cluster.refresh}, so a node
 * deciding where to redirect a stream answers from memory. A node whose agent does not answer is
 * not known to have room.
 */
public final class PeerHeadroom {

    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

    private final Cluster cluster;
    private volatile Map<String, AgentLine> lines = Map.of();

    /** @param cluster the nodes whose agents are read */
    public PeerHeadroom(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Reads every other node's agent again. */
    public void refresh() {
        Map<String, AgentLine> read = new HashMap<>();
        for (Node peer : cluster.peers()) {
            try {
                read.put(peer.name(), AgentProbe.read(new InetSocketAddress(peer.host(), peer.ports().agent()),
                    PROBE_TIMEOUT));
            } catch (IOException | IllegalArgumentException e) {
                // Not known to have room: left out.
            }
        }
        lines = Map.copyOf(read);
    }

    /** What node {@code name}'s agent last said, if it answered. */
    public Optional<AgentLine> of(String name) {
        return Optional.ofNullable(lines.get(name));
    }

    /** Whether node {@code name} last said it takes new streams, and how much room it has (0 where not). */
    public int room(String name) {
        return of(name).filter(AgentLine::admits).map(line -> Math.max(1, line.weightPercent())).orElse(0);
    }
}

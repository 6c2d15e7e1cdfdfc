package io.rondo.server.cli.cluster;

import io.rondo.server.cluster.Cluster;
import io.rondo.server.cluster.NodeCopies;
import io.rondo.server.cluster.RebalancePlan;
import io.rondo.server.config.ClusterSettings.Node;
import io.rondo.server.content.PlayerFiles;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every node's listing, read once, and the rebalance plan it gives: what {@code rondo cluster
 * status} shows and {@code rondo cluster rebalance} carries out. The player's files, which every
 * node installs itself, are left out.
 */
final class ClusterSurvey {

    private final Cluster cluster;
    private final Map<String, List<NodeCopies.Listed>> listed = new LinkedHashMap<>();
    private final Map<String, String> unreachable = new LinkedHashMap<>();

    private ClusterSurvey(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Lists every node of {@code cluster}. */
    static ClusterSurvey of(Cluster cluster, NodeCopies copies) {
        ClusterSurvey survey = new ClusterSurvey(cluster);
        for (Node node : cluster.nodes()) {
            try {
                survey.listed.put(node.name(), copies.list(node).stream()
                    .filter(object -> !object.name().startsWith(PlayerFiles.FOLDER)).toList());
            } catch (IOException e) {
                survey.unreachable.put(node.name(), e.getMessage() == null ? e.toString() : e.getMessage());
            }
        }
        return survey;
    }

    /** What the reachable nodes hold, by node. */
    Map<String, List<NodeCopies.Listed>> listed() {
        return listed;
    }

    /** The nodes that did not answer, and why. */
    Map<String, String> unreachable() {
        return unreachable;
    }

    /** The plan that brings every object onto its owners. */
    RebalancePlan plan() {
        Map<String, List<String>> names = new LinkedHashMap<>();
        listed.forEach((node, objects) -> names.put(node, objects.stream().map(NodeCopies.Listed::name).toList()));
        return RebalancePlan.of(names, cluster.names(), cluster.replicas());
    }

    /** The object {@code name} as node {@code node} lists it. */
    NodeCopies.Listed object(String node, String name) {
        return listed.get(node).stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    /** A table of the nodes: name, addresses, objects, and whether they answered. */
    void printNodes(PrintWriter out) {
        out.printf("%-12s %-22s %-22s %8s  %s%n", "NODE", "HTTP", "STREAM", "OBJECTS", "STATE");
        for (Node node : cluster.nodes()) {
            List<NodeCopies.Listed> objects = listed.get(node.name());
            out.printf("%-12s %-22s %-22s %8s  %s%n", node.name(), node.host() + ":" + node.ports().http(),
                node.host() + ":" + node.ports().stream(), objects == null ? "-" : String.valueOf(objects.size()),
                objects == null ? "unreachable: " + unreachable.get(node.name()) : "up");
        }
    }
}

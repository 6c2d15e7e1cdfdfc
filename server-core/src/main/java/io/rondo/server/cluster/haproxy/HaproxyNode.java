package io.rondo.server.cluster.haproxy;

import java.util.regex.Pattern;

/**
 * One Rondo node as HAProxy reaches it: its name in the cluster (the name rendezvous hashing weighs, so HAProxy
 * computes the same owners as the nodes) and where its HTTP, stream and agent ports are.
 *
 * <p>The name is also the node's server name in HAProxy, and part of the names of the backends it is in
 * ({@code owners_node-a_node-b}), so it is limited to what joins unambiguously into a HAProxy identifier: letters,
 * digits, {@code -} and {@code .}, starting with a letter or a digit (a host name or a Kubernetes pod name
 * fits).
 *
 * @param name the node's name in the cluster
 * @param host the host name or IP address HAProxy connects to
 * @param httpPort the node's HTTP port ({@code http.port})
 * @param streamPort the node's stream protocol port
 * @param agentPort the port of the node's HAProxy agent, which reports its headroom
 */
public record HaproxyNode(String name, String host, int httpPort, int streamPort, int agentPort) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]*");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]*|\\[[0-9A-Fa-f:.]+]");

    /**
     * @throws IllegalArgumentException if the name or host cannot stand in HAProxy's configuration, or a port is
     *     not one
     */
    public HaproxyNode {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("node name '" + name + "' is not letters, digits, '-' and '.', starting"
                + " with a letter or digit, as HAProxy's server and backend names take it");
        }
        if (host == null || !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("node " + name + ": host '" + host + "' is not a host name, an IPv4"
                + " address or a bracketed IPv6 address");
        }
        port(name, "HTTP", httpPort);
        port(name, "stream", streamPort);
        port(name, "agent", agentPort);
    }

    private static void port(String name, String which, int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("node " + name + ": " + which + " port " + port + " is not 1 to 65535");
        }
    }
}

package io.rondo.server.stream;

import io.rondo.client.StreamUrl;

import java.util.Optional;

/**
 * Where else in a cluster an object can be streamed (papers/004 Section 6: each node serves the
 * objects on its own disks): asked when this node cannot serve an OPEN, because its catalog does not
 * hold the object or because admission found no room for it here. A target found becomes the
 * stream protocol's REDIRECT, for a client that follows redirects (docs/stream-protocol.md,
 * Redirects). A single server has no elsewhere: {@link #NONE}. Called on the streams' event loops,
 * so an implementation answers from what it already knows, without waiting on the network.
 */
@FunctionalInterface
public interface Elsewhere {

    /** No other node: every OPEN this node cannot serve is refused as a single server refuses it. */
    Elsewhere NONE = (object, full) -> Optional.empty();

    /**
     * A node to send an OPEN of {@code object} to.
     *
     * @param object the object's name, as the OPEN carries it
     * @param full   true: this node holds the object but has no room, so the target must be another
     *               replica with room; false: this node does not hold it
     * @return the node, or empty if none is known (the client is then refused)
     */
    Optional<Target> find(String object, boolean full);

    /**
     * A node of the cluster, as a client reaches it.
     *
     * @param node       the node's name in the cluster, for logs
     * @param host       the host name or address clients connect to
     * @param streamPort its stream-protocol (TCP) port
     * @param httpPort   its HTTP port, which carries the WebSocket binding
     */
    record Target(String node, String host, int streamPort, int httpPort) {

        /** Checks the ports are ports and the host is given. */
        public Target {
            if (host == null || host.isEmpty()) {
                throw new IllegalArgumentException("a target needs a host");
            }
            if (streamPort < 1 || streamPort > 65535 || httpPort < 1 || httpPort > 65535) {
                throw new IllegalArgumentException("ports must be 1 to 65535, were " + streamPort + " and " + httpPort);
            }
        }

        /** The TCP binding's URL of {@code object} on this node: {@code rondo://HOST:PORT/NAME}. */
        public String streamUrl(String object) {
            return new StreamUrl(host, streamPort, object).url();
        }

        /** The WebSocket binding's URL of {@code object} on this node: {@code ws://HOST:PORT/stream/NAME}. */
        public String webSocketUrl(String object) {
            return "ws://" + new StreamUrl(host, httpPort, object).address() + "/stream/" + StreamUrl.path(object);
        }
    }
}

package io.rondo.server.cluster.sim;

/**
 * Where each scheme sends a stream, given every node's streams: the routing half of a placement
 * scheme; the node admits it if it has room.
 */
final class Routers {

    private Routers() {
    }

    /** A scheme's routing. */
    interface Router {

        /** The node a stream for {@code object} goes to, given each node's streams and their sum. */
        int route(int object, int[] load, int totalLoad);

        /** Whether {@code node} holds a copy of {@code object}. */
        boolean holds(int node, int object);

        /** Nodes that hold each object. */
        int copies();
    }

    /**
     * Rendezvous placement on {@code replicas} nodes, a stream to the owner with most free streams
     * (all nodes admit as many), the more preferred owner on a tie.
     */
    static Router rendezvous(RendezvousRanking ranking, int replicas) {
        int copies = Math.min(replicas, ranking.depth());
        return new Router() {
            @Override
            public int route(int object, int[] load, int totalLoad) {
                int best = ranking.node(object, 0);
                for (int rank = 1; rank < copies; rank++) {
                    int node = ranking.node(object, rank);
                    if (load[node] < load[best]) {
                        best = node;
                    }
                }
                return best;
            }

            @Override
            public boolean holds(int node, int object) {
                for (int rank = 0; rank < copies; rank++) {
                    if (ranking.node(object, rank) == node) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public int copies() {
                return copies;
            }
        };
    }

    /** HAProxy's {@code balance uri} with {@code hash-type consistent}: one copy, where the URI hashes. */
    static Router chash(HaproxyChash ring, int[] keys) {
        int[] owners = ClusterSimulation.owners(ring, keys);
        return new Router() {
            @Override
            public int route(int object, int[] load, int totalLoad) {
                return owners[object];
            }

            @Override
            public boolean holds(int node, int object) {
                return owners[object] == node;
            }

            @Override
            public int copies() {
                return 1;
            }
        };
    }

    /**
     * The same with {@code hash-balance-factor factor}: objects stay where the URI hashes, but a
     * stream goes on clockwise past nodes over their bound, to a node that may not hold its object.
     */
    static Router boundedChash(HaproxyChash ring, int[] keys, int factor) {
        Router placement = chash(ring, keys);
        return new Router() {
            @Override
            public int route(int object, int[] load, int totalLoad) {
                return ring.server(keys[object], factor, load, totalLoad);
            }

            @Override
            public boolean holds(int node, int object) {
                return placement.holds(node, object);
            }

            @Override
            public int copies() {
                return ring.serverCount();
            }
        };
    }
}

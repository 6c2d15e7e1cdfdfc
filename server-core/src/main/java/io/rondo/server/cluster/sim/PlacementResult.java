package io.rondo.server.cluster.sim;

import java.util.List;

/**
 * One placement scheme on one cluster size: how its streams fared at each demand, and what a
 * join and a departure move.
 *
 * @param scheme the scheme's name, e.g. {@code rendezvous r=2} or {@code haproxy chash}
 * @param nodes nodes in the cluster
 * @param objects objects in the library
 * @param fills one per demand, the lowest first
 * @param churn objects moved by a join and by a departure
 */
public record PlacementResult(String scheme, int nodes, int objects, List<Fill> fills, Churn churn) {

    /** Copies the fills. */
    public PlacementResult {
        fills = List.copyOf(fills);
    }

    /**
     * The cluster once its demand reached {@code demand}.
     *
     * @param demand the streams asked for, as a share of the cluster's capacity
     * @param streams the streams asked for
     * @param refused streams refused (their node full) while the cluster as a whole had room
     * @param hotExcess streams asked of objects beyond what all their copies' nodes could admit,
     *     which no routing among those copies could have placed
     * @param offOwner streams admitted by a node that does not hold their object (bounded loads only)
     * @param busiestToMean the busiest node's streams over the mean, with no node ever full
     */
    public record Fill(double demand, int streams, int refused, int hotExcess, int offOwner, double busiestToMean) {

        /** Refused streams as a share of those asked for. */
        public double refusedShare() {
            return streams == 0 ? 0 : refused / (double) streams;
        }
    }

    /**
     * Objects that change nodes, as shares of the library, averaged over joins and departures.
     *
     * @param perJoin objects a new node takes a copy of
     * @param idealPerJoin its fair share: copies per object over the nodes after the join
     * @param perLeave objects that lose the departed node's copy and need a new one
     * @param idealPerLeave copies per object over the nodes before it left
     */
    public record Churn(double perJoin, double idealPerJoin, double perLeave, double idealPerLeave) {
    }
}

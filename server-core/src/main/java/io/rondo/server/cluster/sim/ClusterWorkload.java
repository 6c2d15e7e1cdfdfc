package io.rondo.server.cluster.sim;

import java.util.List;

/**
 * What the placement simulation runs: each node admits {@code capacity} streams and holds
 * {@code objectsPerNode} objects on average (the library grows with the cluster); streams ask for
 * objects by Zipf popularity of exponent {@code zipf} and arrive, none ending, until the cluster's
 * demand reaches each of {@code demands} (shares of its total capacity). The schemes are
 * rendezvous placement with each of {@code replicas} copies and routing to the owner with most
 * room, HAProxy's consistent hashing without replicas and, unless {@code balanceFactor} is 0, the
 * same with {@code hash-balance-factor}. {@code churnEvents} joins and as many departures are
 * averaged. One seed gives one result.
 */
public record ClusterWorkload(int capacity, int objectsPerNode, double zipf, List<Integer> replicas,
                              int balanceFactor, List<Double> demands, int churnEvents, long seed) {

    /** 40 streams and 50 objects a node, Zipf 0.8, r = 1, 2, 3, factor 150, 90% and 100% demand, 10 churns. */
    public static final ClusterWorkload DEFAULT = new ClusterWorkload(40, 50, 0.8, List.of(1, 2, 3), 150,
        List.of(0.9, 1.0), 10, 1);

    /** Checks every field. */
    public ClusterWorkload {
        positive(capacity, "capacity");
        positive(objectsPerNode, "objects per node");
        positive(churnEvents, "churn events");
        if (!(zipf >= 0 && zipf <= 4)) {
            throw new IllegalArgumentException("the Zipf exponent must be between 0 and 4, was " + zipf);
        }
        replicas = List.copyOf(replicas);
        if (replicas.isEmpty() || replicas.stream().anyMatch(r -> r < 1 || r > 16)) {
            throw new IllegalArgumentException("replica counts must be 1 to 16, was " + replicas);
        }
        if (balanceFactor != 0 && balanceFactor <= 100) {
            throw new IllegalArgumentException("the balance factor must be 0 (none) or above 100, was "
                + balanceFactor);
        }
        demands = demands.stream().sorted().toList();
        if (demands.isEmpty() || demands.stream().anyMatch(d -> !(d > 0 && d <= 2))) {
            throw new IllegalArgumentException("demands must be shares of capacity in (0, 2], was " + demands);
        }
    }

    /** This workload with another seed. */
    public ClusterWorkload withSeed(long newSeed) {
        return new ClusterWorkload(capacity, objectsPerNode, zipf, replicas, balanceFactor, demands, churnEvents,
            newSeed);
    }

    /** The largest replica count. */
    int maxReplicas() {
        return replicas.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    private static void positive(int value, String what) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be at least 1, was " + value);
        }
    }
}

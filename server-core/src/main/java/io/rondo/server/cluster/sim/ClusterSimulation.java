package io.rondo.server.cluster.sim;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Fills a cluster of equal nodes with streams, one scheme after another on the same library and
 * the same arrivals, and moves nodes in and out (papers/004 Section 6; issue 25's placement
 * target). Rendezvous placement keeps each object on its {@code r} nodes of highest weight and
 * sends a stream to the owner with most free streams, as HAProxy does when each node's agent
 * reports its free share as its weight; HAProxy's own consistent hashing keeps one copy where
 * {@code balance uri} sends the request. A node admits at most {@code capacity} streams.
 */
public final class ClusterSimulation {

    private static final String OBJECT_FOLDER = "/films/";
    private static final int NAME_LETTERS = 10;

    private ClusterSimulation() {
    }

    /** Every scheme on each cluster size, in the order of {@code sizes}. */
    public static List<PlacementResult> run(ClusterWorkload workload, List<Integer> sizes) {
        List<PlacementResult> results = new ArrayList<>();
        for (int nodes : sizes) {
            results.addAll(run(workload, nodes));
        }
        return results;
    }

    /** Every scheme on a cluster of {@code nodes}: rendezvous for each replica count, then HAProxy's. */
    public static List<PlacementResult> run(ClusterWorkload workload, int nodes) {
        if (nodes < 2) {
            throw new IllegalArgumentException("a cluster needs at least 2 nodes, was " + nodes);
        }
        SplittableRandom random = new SplittableRandom(workload.seed() * 0x9E3779B97F4A7C15L + nodes);
        List<String> nodeNames = new ArrayList<>();
        for (int n = 1; n <= nodes; n++) {
            nodeNames.add(nodeName(n));
        }
        List<String> objects = library(nodes * workload.objectsPerNode(), random.split());
        int[] arrivals = arrivals(workload, nodes, objects.size(), random.split());
        int[] leaving = leaving(workload, nodes, random.split());

        List<PlacementResult> results = new ArrayList<>();
        RendezvousRanking ranking = new RendezvousRanking(nodeNames, objects, workload.maxReplicas() + 1);
        int[][] joinCopies = new int[workload.churnEvents()][];
        for (int k = 0; k < joinCopies.length; k++) {
            joinCopies[k] = ranking.copiesOnJoin(nodeName(nodes + 1 + k));
        }
        int[][] leaveCopies = new int[leaving.length][];
        for (int k = 0; k < leaving.length; k++) {
            leaveCopies[k] = ranking.copiesHeldBy(leaving[k]);
        }
        for (int r : workload.replicas()) {
            PlacementResult.Churn churn = new PlacementResult.Churn(
                mean(joinCopies, r) / objects.size(), Math.min(1.0, r / (nodes + 1.0)),
                mean(leaveCopies, r) / objects.size(), Math.min(1.0, r / (double) nodes));
            results.add(new PlacementResult("rendezvous r=" + r, nodes, objects.size(),
                fill(workload, nodes, objects.size(), arrivals, Routers.rendezvous(ranking, r)), churn));
        }

        HaproxyChash ring = HaproxyChash.ofServers(nodes);
        int[] keys = objects.stream().mapToInt(HaproxyChash::uriKey).toArray();
        PlacementResult.Churn churn = chashChurn(ring, keys, workload.churnEvents(), leaving);
        results.add(new PlacementResult("haproxy chash", nodes, objects.size(),
            fill(workload, nodes, objects.size(), arrivals, Routers.chash(ring, keys)), churn));
        if (workload.balanceFactor() > 0) {
            Routers.Router bounded = Routers.boundedChash(ring, keys, workload.balanceFactor());
            results.add(new PlacementResult("haproxy chash bf" + workload.balanceFactor(), nodes, objects.size(),
                fill(workload, nodes, objects.size(), arrivals, bounded), churn));
        }
        return results;
    }

    /** The name of node {@code n}, counted from 1; HAProxy's server id is the same {@code n}. */
    static String nodeName(int n) {
        return "node-" + n;
    }

    /** Objects moved when a server joins or leaves HAProxy's ring, each event from the same start. */
    static PlacementResult.Churn chashChurn(HaproxyChash ring, int[] keys, int joins, int[] leaving) {
        int nodes = ring.serverCount();
        int[] before = owners(ring, keys);
        long joinMoves = 0;
        for (int k = 0; k < joins; k++) {
            joinMoves += moved(before, owners(ring.withServerAdded(nodes + 1 + k), keys));
        }
        long leaveMoves = 0;
        for (int node : leaving) {
            leaveMoves += moved(before, owners(ring.withServerDown(node), keys));
        }
        return new PlacementResult.Churn(joinMoves / (double) joins / keys.length, 1.0 / (nodes + 1),
            leaveMoves / (double) leaving.length / keys.length, 1.0 / nodes);
    }

    /** Each key's server on {@code ring}. */
    static int[] owners(HaproxyChash ring, int[] keys) {
        int[] owners = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            owners[i] = ring.server(keys[i]);
        }
        return owners;
    }

    private static int moved(int[] before, int[] after) {
        int moved = 0;
        for (int i = 0; i < before.length; i++) {
            if (before[i] != after[i]) {
                moved++;
            }
        }
        return moved;
    }

    private static List<PlacementResult.Fill> fill(ClusterWorkload workload, int nodes, int objects,
                                                   int[] arrivals, Routers.Router router) {
        int capacity = workload.capacity();
        long room = (long) nodes * capacity;
        int[] load = new int[nodes];
        int[] unbounded = new int[nodes];
        int[] demand = new int[objects];
        int admitted = 0;
        int refused = 0;
        int offOwner = 0;
        List<PlacementResult.Fill> fills = new ArrayList<>();
        int next = 0;
        for (double share : workload.demands()) {
            int until = (int) Math.round(share * room);
            for (; next < until; next++) {
                int object = arrivals[next];
                demand[object]++;
                int node = router.route(object, load, admitted);
                if (load[node] < capacity) {
                    load[node]++;
                    admitted++;
                    if (!router.holds(node, object)) {
                        offOwner++;
                    }
                } else if (admitted < room) {
                    refused++;
                }
                unbounded[router.route(object, unbounded, next)]++;
            }
            fills.add(new PlacementResult.Fill(share, until, refused, hotExcess(demand, router.copies() * capacity),
                offOwner, busiestToMean(unbounded, until)));
        }
        return fills;
    }

    private static int hotExcess(int[] demand, long copiesCapacity) {
        long excess = 0;
        for (int d : demand) {
            excess += Math.max(0, d - copiesCapacity);
        }
        return (int) excess;
    }

    private static double busiestToMean(int[] load, int total) {
        int busiest = 0;
        for (int l : load) {
            busiest = Math.max(busiest, l);
        }
        return total == 0 ? 0 : busiest / (total / (double) load.length);
    }

    private static double mean(int[][] counts, int replicas) {
        double sum = 0;
        for (int[] c : counts) {
            sum += c[Math.min(replicas, c.length - 1)];
        }
        return sum / counts.length;
    }

    /** {@code count} distinct object names, random words in one folder, as a library's titles might be. */
    static List<String> library(int count, SplittableRandom random) {
        Set<String> seen = new HashSet<>();
        List<String> names = new ArrayList<>(count);
        StringBuilder name = new StringBuilder();
        while (names.size() < count) {
            name.setLength(0);
            name.append(OBJECT_FOLDER);
            for (int i = 0; i < NAME_LETTERS; i++) {
                name.append((char) ('a' + random.nextInt(26)));
            }
            name.append(".mp4");
            if (seen.add(name.toString())) {
                names.add(name.toString());
            }
        }
        return names;
    }

    private static int[] arrivals(ClusterWorkload workload, int nodes, int objects, SplittableRandom random) {
        double most = workload.demands().get(workload.demands().size() - 1);
        int[] arrivals = new int[(int) Math.round(most * nodes * workload.capacity())];
        ZipfPopularity popularity = new ZipfPopularity(objects, workload.zipf());
        for (int i = 0; i < arrivals.length; i++) {
            arrivals[i] = popularity.sample(random);
        }
        return arrivals;
    }

    private static int[] leaving(ClusterWorkload workload, int nodes, SplittableRandom random) {
        int[] order = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            order[i] = i;
        }
        for (int i = nodes - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        int[] leaving = new int[Math.min(nodes, workload.churnEvents())];
        System.arraycopy(order, 0, leaving, 0, leaving.length);
        return leaving;
    }
}

package io.rondo.content.cluster;

import net.openhft.chronicle.algo.hashing.LongHashFunction;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Rendezvous (highest-random-weight) hashing of objects over nodes, after Thaler and Ravishankar:
 * each node's weight for an object is a hash of the two names together, and the object lives on
 * the {@code r} nodes of highest weight. A node that joins takes about {@code r/n} of the objects,
 * each from one former owner; a node that leaves gives each of its objects to one new owner; no
 * other object moves.
 *
 * <p>The weight is XXH64, seed 0, of the UTF-8 bytes of the node's name followed by the object's
 * name (which starts with {@code /}, so the pair is unambiguous), compared as an unsigned number,
 * ties broken by the node's name. XXH64 is HAProxy's {@code xxh64} converter too: the Lua that
 * {@code rondo cluster haproxy-config} writes computes the same owners in front of the nodes, so
 * a request reaches a node that holds its object without asking any of them.
 */
public final class Rendezvous {

    private static final LongHashFunction XXH64 = LongHashFunction.xx_r39();

    private Rendezvous() {
    }

    /** {@code node}'s weight for {@code object}, an unsigned 64-bit number. */
    public static long weight(String node, String object) {
        return XXH64.hashBytes((node + object).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The nodes that hold {@code object}, the most preferred first: the {@code replicas} of highest
     * weight, or all of them if there are fewer.
     *
     * @throws IllegalArgumentException if {@code replicas} is not positive
     */
    public static List<String> owners(String object, Collection<String> nodes, int replicas) {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
        }
        List<Ranked> ranked = new ArrayList<>(nodes.size());
        for (String node : nodes) {
            ranked.add(new Ranked(node, weight(node, object)));
        }
        ranked.sort(Ranked.HIGHEST_FIRST);
        List<String> owners = new ArrayList<>(Math.min(replicas, ranked.size()));
        for (int i = 0; i < ranked.size() && i < replicas; i++) {
            owners.add(ranked.get(i).node);
        }
        return owners;
    }

    /** Whether {@code node} is among {@code object}'s owners. */
    public static boolean owns(String node, String object, Collection<String> nodes, int replicas) {
        return owners(object, nodes, replicas).contains(node);
    }

    private record Ranked(String node, long weight) {
        static final Comparator<Ranked> HIGHEST_FIRST = (a, b) -> {
            int byWeight = Long.compareUnsigned(b.weight, a.weight);
            return byWeight != 0 ? byWeight : a.node.compareTo(b.node);
        };
    }
}

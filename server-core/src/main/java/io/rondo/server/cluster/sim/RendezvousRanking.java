package io.rondo.server.cluster.sim;

import io.rondo.content.cluster.Rendezvous;
import net.openhft.chronicle.algo.hashing.LongHashFunction;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Each object's most preferred nodes by {@link Rendezvous}, computed once for a whole library:
 * the same XXH64 weights of node name then object name, the same order (the higher weight first,
 * then the lower name), over byte arrays rather than concatenated strings, so that a thousand
 * nodes times fifty thousand objects take about a second. It keeps {@code depth} nodes per object,
 * one more than the largest replica count, which is what a departure needs: the next in rank
 * takes the departed node's copy.
 */
final class RendezvousRanking {

    private static final LongHashFunction XXH64 = LongHashFunction.xx_r39();

    private final List<String> nodes;
    private final byte[][] nodeBytes;
    private final byte[][] objectBytes;
    private final int depth;
    private final int[] rankedNodes;
    private final long[] rankedWeights;
    private final int longestNode;
    private final int longestObject;

    RendezvousRanking(List<String> nodes, List<String> objects, int depth) {
        this.nodes = List.copyOf(nodes);
        this.depth = Math.min(depth, nodes.size());
        nodeBytes = nodes.stream().map(n -> n.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        objectBytes = objects.stream().map(o -> o.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        longestNode = longest(nodeBytes);
        longestObject = longest(objectBytes);
        rankedNodes = new int[objects.size() * this.depth];
        rankedWeights = new long[objects.size() * this.depth];
        IntStream.range(0, objects.size()).parallel().forEach(this::rank);
    }

    /** Nodes ranked per object. */
    int depth() {
        return depth;
    }

    /** The node of rank {@code rank} (0 = most preferred) for {@code object}. */
    int node(int object, int rank) {
        return rankedNodes[object * depth + rank];
    }

    /** The node's name. */
    String nodeName(int node) {
        return nodes.get(node);
    }

    /**
     * For each replica count {@code r} from 1 to {@code depth}, how many objects a new node of this
     * name would take a copy of: those for which it outranks the present {@code r}th owner.
     */
    int[] copiesOnJoin(String newNode) {
        byte[] joining = newNode.getBytes(StandardCharsets.UTF_8);
        byte[] scratch = new byte[Math.max(joining.length, longestNode) + longestObject];
        int[] copies = new int[depth + 1];
        for (int o = 0; o < objectBytes.length; o++) {
            long weight = weight(joining, objectBytes[o], scratch);
            for (int r = 1; r <= depth; r++) {
                int at = o * depth + r - 1;
                if (outranks(weight, newNode, rankedWeights[at], nodes.get(rankedNodes[at]))) {
                    copies[r]++;
                }
            }
        }
        return copies;
    }

    /** For each replica count {@code r} up to {@code depth}, how many objects hold a copy on {@code node}. */
    int[] copiesHeldBy(int node) {
        int[] held = new int[depth + 1];
        for (int o = 0; o < objectBytes.length; o++) {
            for (int r = 0; r < depth; r++) {
                if (rankedNodes[o * depth + r] == node) {
                    for (int replicas = r + 1; replicas <= depth; replicas++) {
                        held[replicas]++;
                    }
                    break;
                }
            }
        }
        return held;
    }

    private void rank(int object) {
        byte[] scratch = new byte[longestNode + longestObject];
        int base = object * depth;
        int filled = 0;
        for (int n = 0; n < nodeBytes.length; n++) {
            long weight = weight(nodeBytes[n], objectBytes[object], scratch);
            if (filled == depth && !outranks(weight, n, base + depth - 1)) {
                continue;
            }
            int at = filled < depth ? filled++ : depth - 1;
            while (at > 0 && outranks(weight, n, base + at - 1)) {
                rankedNodes[base + at] = rankedNodes[base + at - 1];
                rankedWeights[base + at] = rankedWeights[base + at - 1];
                at--;
            }
            rankedNodes[base + at] = n;
            rankedWeights[base + at] = weight;
        }
    }

    private boolean outranks(long weight, int node, int at) {
        return outranks(weight, nodes.get(node), rankedWeights[at], nodes.get(rankedNodes[at]));
    }

    private static boolean outranks(long weight, String node, long otherWeight, String other) {
        int byWeight = Long.compareUnsigned(weight, otherWeight);
        return byWeight != 0 ? byWeight > 0 : node.compareTo(other) < 0;
    }

    private static int longest(byte[][] names) {
        int longest = 0;
        for (byte[] name : names) {
            longest = Math.max(longest, name.length);
        }
        return longest;
    }

    private static long weight(byte[] node, byte[] object, byte[] scratch) {
        System.arraycopy(node, 0, scratch, 0, node.length);
        System.arraycopy(object, 0, scratch, node.length, object.length);
        return XXH64.hashBytes(scratch, 0, node.length + object.length);
    }
}

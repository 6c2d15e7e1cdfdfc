package io.rondo.server.cluster;

import io.rondo.content.cluster.Rendezvous;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code rondo cluster rebalance} does to bring each object onto its owners: for each owner
 * that lacks an object, one copy from a node that holds it (an owner if one does, so the copy is
 * read where it will stay); and, for each object that all its owners hold, the removal of the
 * copies of nodes that are not owners (where a node left, or a node joined and took them). An
 * object no reachable node holds cannot be copied and is reported; nothing is removed until every
 * owner holds it, so an object is never left with fewer copies than it had.
 */
public final class RebalancePlan {

    /** Copy {@code object} from node {@code from} to node {@code to}. */
    public record Copy(String object, String from, String to) {
    }

    /** Remove {@code node}'s copy of {@code object}, which it does not own. */
    public record Removal(String object, String node) {
    }

    private final List<Copy> copies;
    private final List<Removal> removals;
    private final int objects;
    private final int placed;

    private RebalancePlan(List<Copy> copies, List<Removal> removals, int objects, int placed) {
        this.copies = List.copyOf(copies);
        this.removals = List.copyOf(removals);
        this.objects = objects;
        this.placed = placed;
    }

    /**
     * The plan for a cluster of {@code nodes} whose reachable nodes hold what {@code held} says.
     *
     * @param held     each reachable node's objects, by node name
     * @param nodes    every node of the cluster, reachable or not
     * @param replicas how many nodes hold each object
     */
    public static RebalancePlan of(Map<String, ? extends Collection<String>> held, Collection<String> nodes,
                                   int replicas) {
        Map<String, Set<String>> holders = new TreeMap<>();
        held.forEach((node, names) -> names.forEach(name ->
            holders.computeIfAbsent(name, key -> new TreeSet<>()).add(node)));
        List<Copy> copies = new ArrayList<>();
        List<Removal> removals = new ArrayList<>();
        int placed = 0;
        for (Map.Entry<String, Set<String>> entry : holders.entrySet()) {
            String name = entry.getKey();
            Set<String> have = entry.getValue();
            List<String> owners = Rendezvous.owners(name, nodes, replicas);
            String source = owners.stream().filter(have::contains).findFirst().orElse(have.iterator().next());
            boolean complete = true;
            for (String owner : owners) {
                if (!have.contains(owner)) {
                    complete &= held.containsKey(owner);
                    if (held.containsKey(owner)) {
                        copies.add(new Copy(name, source, owner));
                    }
                }
            }
            boolean extra = false;
            for (String node : have) {
                if (!owners.contains(node)) {
                    extra = true;
                    if (complete) {
                        removals.add(new Removal(name, node));
                    }
                }
            }
            if (owners.stream().allMatch(have::contains) && !extra) {
                placed++;
            }
        }
        return new RebalancePlan(copies, removals, holders.size(), placed);
    }

    /** The copies to make, by object. */
    public List<Copy> copies() {
        return copies;
    }

    /** The copies to remove once the copies are made, by object. */
    public List<Removal> removals() {
        return removals;
    }

    /** How many objects the reachable nodes hold. */
    public int objects() {
        return objects;
    }

    /** How many of them are on exactly their owners already. */
    public int placed() {
        return placed;
    }

    /** Whether there is nothing to do. */
    public boolean balanced() {
        return copies.isEmpty() && removals.isEmpty();
    }
}

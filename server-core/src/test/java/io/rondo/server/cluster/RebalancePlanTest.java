package io.rondo.server.cluster;

import io.rondo.content.cluster.Rendezvous;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RebalancePlanTest {

    private static final List<String> NAMES = IntStream.range(0, 400).mapToObj(i -> "/o/" + i).toList();

    /** Each node of {@code nodes} holding exactly what it owns among them. */
    private static Map<String, List<String>> placed(List<String> nodes) {
        Map<String, List<String>> held = new HashMap<>();
        for (String node : nodes) {
            held.put(node, NAMES.stream().filter(name -> Rendezvous.owns(node, name, nodes, 2)).toList());
        }
        return held;
    }

    @Test
    void aPlacedClusterHasNothingToDo() {
        RebalancePlan plan = RebalancePlan.of(placed(List.of("a", "b", "c")), List.of("a", "b", "c"), 2);
        assertTrue(plan.balanced());
        assertEquals(NAMES.size(), plan.placed());
    }

    @Test
    void aJoiningNodeTakesAboutItsShareFromOwnersAndTheDisplacedCopiesGo() {
        Map<String, List<String>> held = placed(List.of("a", "b", "c"));
        held.put("d", List.of());
        RebalancePlan plan = RebalancePlan.of(held, List.of("a", "b", "c", "d"), 2);
        assertEquals(NAMES.size() / 2.0, plan.copies().size(), NAMES.size() * 0.08, "d's half of the replicas");
        assertTrue(plan.copies().stream().allMatch(copy -> copy.to().equals("d")));
        assertEquals(plan.copies().size(), plan.removals().size(), "each copy to d displaces one elsewhere");
    }

    @Test
    void aNodeThatLeftGivesEachOfItsObjectsOneNewOwnerAndNothingIsRemovedWhileAnOwnerIsAway() {
        Map<String, List<String>> held = placed(List.of("a", "b", "c", "d"));
        List<String> ofD = held.remove("d");
        RebalancePlan gone = RebalancePlan.of(held, List.of("a", "b", "c"), 2);
        assertEquals(ofD.size(), gone.copies().size(), "one new copy for each object d held");
        assertTrue(gone.removals().isEmpty());
        RebalancePlan away = RebalancePlan.of(held, List.of("a", "b", "c", "d"), 2);
        assertTrue(away.copies().isEmpty() && away.removals().isEmpty(), "d is only unreachable: wait for it");
    }
}

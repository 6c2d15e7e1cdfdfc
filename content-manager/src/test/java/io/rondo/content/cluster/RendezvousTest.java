package io.rondo.content.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RendezvousTest {

    private static final List<String> THREE = List.of("a", "b", "c");

    /** HAProxy's {@code xxh64} converter gives this for {@code "node-a/videos/x.webm"} (haproxy 2.6, seed 0). */
    @Test
    void theWeightIsHaproxysXxh64OfTheTwoNames() {
        assertEquals(-4826726605665642605L, Rendezvous.weight("node-a", "/videos/x.webm"));
    }

    @Test
    void anObjectHasReplicasDistinctOwnersInTheSameOrderWhateverTheNodesOrder() {
        for (int i = 0; i < 200; i++) {
            String name = "/o/" + i;
            List<String> owners = Rendezvous.owners(name, THREE, 2);
            assertEquals(2, owners.size());
            assertTrue(!owners.get(0).equals(owners.get(1)));
            assertEquals(owners, Rendezvous.owners(name, List.of("c", "a", "b"), 2));
            assertEquals(owners.subList(0, 1), Rendezvous.owners(name, THREE, 1));
        }
        assertEquals(THREE.size(), Rendezvous.owners("/x", THREE, 5).size());
        assertThrows(IllegalArgumentException.class, () -> Rendezvous.owners("/x", THREE, 0));
    }

    @Test
    void objectsSpreadEvenlyAndAJoiningNodeTakesAboutItsShareFromTheOthersOnly() {
        int objects = 6000;
        List<String> four = List.of("a", "b", "c", "d");
        Map<String, Integer> held = new HashMap<>();
        int moved = 0;
        for (int i = 0; i < objects; i++) {
            String name = "/library/" + i + ".mp4";
            List<String> before = Rendezvous.owners(name, THREE, 2);
            List<String> after = Rendezvous.owners(name, four, 2);
            before.forEach(node -> held.merge(node, 1, Integer::sum));
            List<String> gained = new ArrayList<>(after);
            gained.removeAll(before);
            moved += gained.size();
            assertTrue(gained.isEmpty() || gained.equals(List.of("d")), "only the new node gains: " + name);
        }
        for (String node : THREE) {
            assertEquals(objects * 2 / 3.0, held.get(node), objects * 0.05, node + " holds its share");
        }
        // A fourth node of four takes half its new share of 2/4 of the replicas: 2 * objects / 4.
        assertEquals(objects / 2.0, moved, objects * 0.05);
    }
}

package io.rondo.server.cluster.sim;

import io.rondo.content.cluster.Rendezvous;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The placement simulation's claims: rendezvous ranks as Rondo does, moves r/n, and refuses less than HAProxy. */
class ClusterSimulationTest {

    private static List<String> nodes(int count) {
        List<String> nodes = new ArrayList<>();
        for (int n = 1; n <= count; n++) {
            nodes.add(ClusterSimulation.nodeName(n));
        }
        return nodes;
    }

    private static PlacementResult scheme(List<PlacementResult> results, String name) {
        return results.stream().filter(r -> r.scheme().equals(name)).findFirst().orElseThrow();
    }

    /** The fast ranking names the same owners, in the same order, as Rondo's Rendezvous. */
    @Test
    void rankingIsRondosRendezvous() {
        List<String> nodes = nodes(12);
        List<String> objects = ClusterSimulation.library(500, new SplittableRandom(5));
        RendezvousRanking ranking = new RendezvousRanking(nodes, objects, 4);
        for (int o = 0; o < objects.size(); o++) {
            List<String> owners = Rendezvous.owners(objects.get(o), nodes, 4);
            for (int rank = 0; rank < 4; rank++) {
                assertEquals(owners.get(rank), ranking.nodeName(ranking.node(o, rank)), objects.get(o));
            }
        }
    }

    /** With r = 2 a joining node takes a copy of about 2/(n+1) of the objects, as Rendezvous itself says. */
    @Test
    void rendezvousWithTwoReplicasMovesAboutTwoInNPerJoin() {
        List<String> nodes = nodes(20);
        List<String> objects = ClusterSimulation.library(4_000, new SplittableRandom(6));
        List<String> joined = new ArrayList<>(nodes);
        joined.add(ClusterSimulation.nodeName(21));
        int copied = 0;
        for (String object : objects) {
            Set<String> before = new HashSet<>(Rendezvous.owners(object, nodes, 2));
            List<String> after = Rendezvous.owners(object, joined, 2);
            for (String owner : after) {
                if (!before.contains(owner)) {
                    assertEquals(ClusterSimulation.nodeName(21), owner, "only the new node gains copies");
                    copied++;
                }
            }
        }
        RendezvousRanking ranking = new RendezvousRanking(nodes, objects, 3);
        assertEquals(copied, ranking.copiesOnJoin(ClusterSimulation.nodeName(21))[2]);
        double share = copied / (double) objects.size();
        assertTrue(Math.abs(share - 2.0 / 21) < 0.02, "copied " + share + " of the objects, 2/21 expected");

        PlacementResult r2 = scheme(ClusterSimulation.run(ClusterWorkload.DEFAULT, 100), "rendezvous r=2");
        assertTrue(Math.abs(r2.churn().perJoin() - 2.0 / 101) < 0.004, r2.churn().toString());
        assertTrue(Math.abs(r2.churn().perLeave() - 2.0 / 100) < 0.004, r2.churn().toString());
    }

    /** Zipf popularity at 90% demand: two copies, routed by headroom, refuse far fewer streams than HAProxy. */
    @Test
    void twoReplicasWithHeadroomRoutingRefuseFarFewerThanConsistentHashing() {
        for (int nodes : List.of(10, 100)) {
            List<PlacementResult> results = ClusterSimulation.run(ClusterWorkload.DEFAULT, nodes);
            PlacementResult.Fill r2 = scheme(results, "rendezvous r=2").fills().get(0);
            PlacementResult.Fill chash = scheme(results, "haproxy chash").fills().get(0);
            assertEquals(0.9, r2.demand());
            assertTrue(chash.refused() > 0.05 * chash.streams(), nodes + " nodes: " + chash);
            assertTrue(r2.refused() * 3 < chash.refused(), nodes + " nodes: " + r2 + " against " + chash);
            assertTrue(r2.busiestToMean() < chash.busiestToMean(), r2 + " against " + chash);
            assertEquals(0, r2.offOwner());
        }
    }

    /** One seed gives one result; another seed another. */
    @Test
    void seededRunsAreReproducible() {
        List<PlacementResult> first = ClusterSimulation.run(ClusterWorkload.DEFAULT, List.of(10, 30));
        List<PlacementResult> second = ClusterSimulation.run(ClusterWorkload.DEFAULT, List.of(10, 30));
        assertEquals(first, second);
        assertNotEquals(first, ClusterSimulation.run(ClusterWorkload.DEFAULT.withSeed(2), List.of(10, 30)));
    }
}

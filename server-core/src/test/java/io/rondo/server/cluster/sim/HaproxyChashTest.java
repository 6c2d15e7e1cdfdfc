package io.rondo.server.cluster.sim;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HAProxy's consistent hashing as the simulation emulates it: its hashes, and what a join or a departure moves. */
class HaproxyChashTest {

    private static final int[] KEYS = ClusterSimulation.library(5_000, new SplittableRandom(3)).stream()
        .mapToInt(HaproxyChash::uriKey).toArray();

    /** The same numbers as HAProxy 2.6's full_hash() and full_hash(hash_sdbm()) in C. */
    @Test
    void hashesAreHaproxys() {
        assertEquals(2874071335L, Integer.toUnsignedLong(HaproxyChash.fullHash(0)));
        assertEquals(1237450891L, Integer.toUnsignedLong(HaproxyChash.fullHash(4096)));
        assertEquals(2761818408L, Integer.toUnsignedLong(HaproxyChash.fullHash(7 * 4096 + 15)));
        assertEquals(1459792913L, Integer.toUnsignedLong(HaproxyChash.uriKey("/films/abcdefghij.mp4")));
        assertEquals(HaproxyChash.uriKey("/films/abcdefghij.mp4"), HaproxyChash.uriKey("/films/abcdefghij.mp4?t=30"),
            "balance uri stops at the query");
    }

    /** A server marked down gives away its keys and no other key moves. */
    @Test
    void aDepartureMovesOnlyTheLeavingServersKeys() {
        HaproxyChash ring = HaproxyChash.ofServers(20);
        int[] before = ClusterSimulation.owners(ring, KEYS);
        for (int leaving : List.of(0, 7, 19)) {
            int[] after = ClusterSimulation.owners(ring.withServerDown(leaving), KEYS);
            int moved = 0;
            for (int i = 0; i < KEYS.length; i++) {
                if (before[i] != after[i]) {
                    assertEquals(leaving, before[i], "key " + i + " moved although its server stayed");
                    moved++;
                }
                assertTrue(after[i] != leaving);
            }
            assertTrue(moved > 0, "server " + leaving + " held keys");
        }
    }

    /** A server that joins takes keys for itself only, about 1/(n+1) of them. */
    @Test
    void aJoinTakesKeysOnlyForItself() {
        HaproxyChash ring = HaproxyChash.ofServers(20);
        int[] before = ClusterSimulation.owners(ring, KEYS);
        double moved = 0;
        for (int k = 0; k < 10; k++) {
            int[] after = ClusterSimulation.owners(ring.withServerAdded(21 + k), KEYS);
            for (int i = 0; i < KEYS.length; i++) {
                if (before[i] != after[i]) {
                    assertEquals(20, after[i], "key " + i + " moved to another old server");
                    moved++;
                }
            }
        }
        double share = moved / 10 / KEYS.length;
        assertTrue(share > 0.5 / 21 && share < 2.0 / 21, "moved " + share + " of the keys, about 1/21 expected");
    }

    /** With a balance factor no server serves more than its bound while another is below it. */
    @Test
    void boundedLoadsKeepEveryServerUnderTheFactor() {
        HaproxyChash ring = HaproxyChash.ofServers(10);
        int[] served = new int[10];
        int total = 0;
        for (int i = 0; i < 1_000; i++) {
            served[ring.server(KEYS[i % 7], 150, served, total)]++;
            total++;
        }
        for (int s : served) {
            assertTrue(s <= Math.ceil(1.5 * total / 10) + 1, "a server serves " + s + " of " + total);
        }
    }
}

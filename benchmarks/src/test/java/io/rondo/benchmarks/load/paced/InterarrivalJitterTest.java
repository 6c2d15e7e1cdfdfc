package io.rondo.benchmarks.load.paced;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class InterarrivalJitterTest {

    @Test
    void followsRfc3550ByHand() {
        InterarrivalJitter j = new InterarrivalJitter();
        // Transit times 10, 26, 26, 10 (arrival - due): D = 16, 0, 16.
        j.arrived(0, 10);
        assertEquals(0.0, j.jitterNs(), "one packet has no jitter");
        j.arrived(100, 126);
        assertEquals(1.0, j.jitterNs(), 1e-12); // 0 + (16 - 0) / 16
        j.arrived(200, 226);
        assertEquals(0.9375, j.jitterNs(), 1e-12); // 1 + (0 - 1) / 16
        j.arrived(300, 310);
        assertEquals(1.87890625, j.jitterNs(), 1e-12); // 0.9375 + (16 - 0.9375) / 16
        assertEquals(4, j.count());
    }

    @Test
    void equallyLateReadsHaveNoInterarrivalJitter() {
        InterarrivalJitter j = new InterarrivalJitter();
        for (int i = 0; i < 100; i++) {
            j.arrived(i * 1_000_000L, i * 1_000_000L + 300_000_000L);
        }
        assertEquals(0.0, j.jitterNs());
    }

    @Test
    void convergesToTheMeanDeviationOfAlternatingTransits() {
        InterarrivalJitter j = new InterarrivalJitter();
        for (int i = 0; i < 1000; i++) {
            j.arrived(i * 100L, i * 100L + (i % 2 == 0 ? 0 : 32));
        }
        assertEquals(32.0, j.jitterNs(), 1e-6);
    }
}

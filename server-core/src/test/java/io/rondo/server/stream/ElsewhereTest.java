package io.rondo.server.stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The URLs a REDIRECT names a node by, in each binding. */
class ElsewhereTest {

    @Test
    void aTargetIsNamedByTheUrlOfTheBindingTheClientCameBy() {
        Elsewhere.Target node = new Elsewhere.Target("node-b", "node-b.example", 9554, 9080);
        assertEquals("rondo://node-b.example:9554/films/caf%C3%A9%20%5Bhd%5D.webm",
            node.streamUrl("films/caf\u00e9 [hd].webm"));
        assertEquals("ws://node-b.example:9080/stream/films/caf%C3%A9%20%5Bhd%5D.webm",
            node.webSocketUrl("films/caf\u00e9 [hd].webm"));
        Elsewhere.Target v6 = new Elsewhere.Target("node-c", "::1", 1, 2);
        assertEquals("ws://[::1]:2/stream/a.webm", v6.webSocketUrl("a.webm"));
        assertEquals("rondo://[::1]:1/a.webm", v6.streamUrl("a.webm"));
        assertTrue(Elsewhere.NONE.find("a.webm", false).isEmpty(), "a single server knows no other node");
    }

    @Test
    void aTargetNeedsAHostAndPorts() {
        assertThrows(IllegalArgumentException.class, () -> new Elsewhere.Target("x", "", 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Elsewhere.Target("x", "h", 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Elsewhere.Target("x", "h", 1, 65536));
    }
}

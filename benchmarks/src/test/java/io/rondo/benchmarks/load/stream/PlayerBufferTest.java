package io.rondo.benchmarks.load.stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlayerBufferTest {

    private static final long S = 1_000_000_000L;

    @Test
    void playbackStartsAtTheFirstDeadlineAndDrainsAtTheMediaRate() {
        PlayerBuffer buffer = new PlayerBuffer(1_000_000);
        buffer.received(0, S, 250_000, 10 * S);
        buffer.received(S, S, 250_000, 11 * S);

        assertEquals(2 * S, buffer.bufferedNs(9 * S));
        assertEquals(500_000, buffer.bufferedBytes(9 * S));
        assertEquals(S / 2 * 3, buffer.bufferedNs(10 * S + S / 2));
        assertEquals(250_000, buffer.bufferedBytes(11 * S));
        assertEquals(0, buffer.bufferedBytes(12 * S));
        assertEquals(0, buffer.bufferedNs(13 * S));
    }

    @Test
    void aFullBufferSaysWhenPlaybackMakesRoom() {
        PlayerBuffer buffer = new PlayerBuffer(500_000);
        buffer.received(0, S, 250_000, 10 * S);
        buffer.received(S, S, 250_000, 11 * S);

        assertTrue(buffer.full(10 * S));
        assertEquals(S / 4, buffer.nextRoomInNs(10 * S + 3 * S / 4));
        assertTrue(buffer.full(11 * S - 1));
        assertFalse(buffer.full(11 * S));
    }
}

package io.rondo.server.stream;

import io.rondo.client.protocol.ClientProfile;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.server.config.ClientBufferUse;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which mode a client's declared profile gets, for fragments of at most 250,000 bytes in rounds of
 * one second: ClBuf from a buffer of 750,000 bytes, ClBufRate from a rate that sends 250,000 bytes
 * within 100 ms (2,500,000 bytes/s) besides; and what a refused client is told to declare.
 */
class ClientBufferingTest {

    private static final long PEAK = 250_000;
    private static final long ROUND_NS = 1_000_000_000L;
    private static final List<Long> READS = List.of(200_000L);

    @Test
    void aClientGetsTheBestModeItsBufferAndRateAllow() {
        assertEquals(BufferMode.DOUBLE, mode(ClientBufferUse.RATE, 2_500_000, 749_999));
        assertEquals(BufferMode.CLIENT_BUFFER, mode(ClientBufferUse.RATE, 2_499_999, 750_000));
        assertEquals(BufferMode.CLIENT_RATE, mode(ClientBufferUse.RATE, 2_500_000, 750_000));
        assertEquals(BufferMode.CLIENT_BUFFER, mode(ClientBufferUse.BUFFER, 2_500_000, 750_000));
        assertEquals(BufferMode.DOUBLE, mode(ClientBufferUse.OFF, 2_500_000, 750_000));
    }

    @Test
    void aClientIsToldWhatWouldGetItABetterMode() {
        ClientBuffering thin = ClientBuffering.choose(ClientBufferUse.RATE, new ClientProfile(1_000_000, 500_000), PEAK,
            READS, ROUND_NS);
        assertTrue(thin.describe().startsWith("DblBuf (two buffers of its own); a client declaring a buffer of at "
            + "least 750000 bytes"), thin.describe());
        assertTrue(thin.describe().contains("a rate of at least 2500000 bytes/s"), thin.describe());
        ClientBuffering fast = ClientBuffering.choose(ClientBufferUse.RATE, new ClientProfile(12_500_000, 16 << 20),
            PEAK, READS, ROUND_NS);
        assertNull(fast.better(), "nothing better than ClBufRate");
        assertEquals(20_000_000, fast.sendNs(), "250,000 bytes at 12.5 MB/s");
        assertEquals(fast.sendNs() + 2 * fast.graceNs(), fast.buffers().holdNs(), "its send and twice the grace");
        assertEquals(256 * 1024, fast.buffers().bufferBytes(), "the size class of the fragment and two blocks");
        assertTrue(ClientBuffering.choose(ClientBufferUse.OFF, new ClientProfile(12_500_000, 16 << 20), PEAK, READS,
            ROUND_NS).describe().contains("buffers.clientBuffers is off"));
    }

    private static BufferMode mode(ClientBufferUse use, long rate, long buffer) {
        return ClientBuffering.choose(use, new ClientProfile(rate, buffer), PEAK, READS, ROUND_NS).mode();
    }
}

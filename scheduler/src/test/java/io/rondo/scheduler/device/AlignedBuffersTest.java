package io.rondo.scheduler.device;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Buffers O_DIRECT accepts: direct, aligned, with the capacity rounded up to the alignment. */
class AlignedBuffersTest {

    @Test
    void capacityIsRoundedUpAndTheStartAligned() {
        for (int asked : new int[] {0, 1, 4095, 4096, 4097, 1 << 20}) {
            ByteBuffer buffer = AlignedBuffers.allocate(asked);
            int expected = (asked + 4095) / 4096 * 4096;
            assertEquals(expected, buffer.capacity(), "capacity for " + asked);
            assertEquals(expected, buffer.remaining());
            assertTrue(buffer.isDirect());
            assertEquals(0, buffer.alignmentOffset(0, DiskIo.ALIGNMENT), "aligned start for " + asked);
        }
    }

    @Test
    void impossibleCapacitiesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> AlignedBuffers.allocate(-1));
        assertThrows(IllegalArgumentException.class, () -> AlignedBuffers.allocate(Integer.MAX_VALUE));
    }
}

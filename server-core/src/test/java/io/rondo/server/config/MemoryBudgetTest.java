package io.rondo.server.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryBudgetTest {

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    // With both at auto, the buffers get half the direct memory and the cache an eighth: 5/8 together.
    @Test
    void autoGivesTheCacheAnEighthBesideHalfForTheBuffers() {
        assertEquals(768 * MIB, MemoryBudget.autoHotObjects(6 * GIB, 3 * GIB));
    }

    // A ceiling raised to 70% of direct memory leaves the cache what is left of the shared three quarters.
    @Test
    void aHigherCeilingShrinksTheAutoCache() {
        long direct = 1000 * MIB;
        assertEquals(50 * MIB, MemoryBudget.autoHotObjects(direct, 700 * MIB));
        assertEquals(MemoryBudget.MIN_HOT_OBJECTS, MemoryBudget.autoHotObjects(direct, 900 * MIB),
            "never below 16 MiB");
    }

    @Test
    void buffersAndCacheThatPassDirectMemoryAreWarnedAbout() {
        MemoryBudget fits = new MemoryBudget(GIB, 2 * GIB, GIB, 256 * MIB, 16 * GIB, "this machine");
        MemoryBudget over = new MemoryBudget(GIB, 2 * GIB, 2 * GIB, 256 * MIB, 0, null);
        assertTrue(fits.warnings().isEmpty(), fits.warnings().toString());
        assertEquals(1, over.warnings().size());
        assertTrue(over.warnings().get(0).contains("RONDO_MEMORY"), over.warnings().get(0));
    }

    @Test
    void theLineSaysWhatTheLauncherSizedFor() {
        assertEquals("memory: heap 2 GiB, direct 4 GiB (sized by ./rondo for this machine's 16 GiB): read buffers "
                + "2 GiB + hot objects 512 MiB = 63% of direct",
            new MemoryBudget(2 * GIB, 4 * GIB, 2 * GIB, 512 * MIB, 16 * GIB, "this machine").describe());
        assertEquals("memory: heap 256 MiB, direct 512 MiB (sized by ./rondo for RONDO_MEMORY=2 GiB): read buffers "
                + "256 MiB + hot objects 64 MiB = 63% of direct",
            new MemoryBudget(256 * MIB, 512 * MIB, 256 * MIB, 64 * MIB, 2 * GIB, "RONDO_MEMORY").describe());
        assertTrue(new MemoryBudget(GIB, GIB, 512 * MIB, 128 * MIB, 0, null).describe()
            .contains("(set by the JVM's flags)"));
    }
}

package io.rondo.server.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Sizes in powers of 1024, both ways. */
class ByteSizesTest {

    @Test
    void suffixesArePowersOf1024() {
        assertEquals(4096, ByteSizes.parse("4096", "--size"));
        assertEquals(64 * 1024, ByteSizes.parse("64K", "--size"));
        assertEquals(256L << 20, ByteSizes.parse("256MiB", "--size"));
        assertEquals(2L << 30, ByteSizes.parse("2g", "--size"));
        assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("lots", "--size"));
        assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("0", "--size"));
    }

    @Test
    void aSizeIsPrintedInTheLargestUnitItReachesOnceRounded() {
        assertEquals("512 B", ByteSizes.format(512));
        assertEquals("1.5 KiB", ByteSizes.format(1536));
        assertEquals("256 MiB", ByteSizes.format(256L << 20));
        assertEquals("1.0 MiB", ByteSizes.format((1L << 20) - 10), "1023.99 KiB is written 1.0 MiB, not 1024.0 KiB");
        assertEquals("1 KiB", ByteSizes.format(1024));
        assertEquals("1023 B", ByteSizes.format(1023));
    }
}

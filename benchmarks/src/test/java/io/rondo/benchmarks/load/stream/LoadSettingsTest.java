package io.rondo.benchmarks.load.stream;

import io.rondo.client.protocol.ClientProfile;
import io.rondo.server.config.ByteSizes;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LoadSettingsTest {

    @Test
    void opensSpreadEvenlyOverTheRamp() {
        LoadSettings settings = new LoadSettings("127.0.0.1", 19401, "a.webm", 200, 10_000_000_000L, 60_000_000_000L,
            new ClientProfile(4 << 20, 16 << 20), false, 1);
        assertEquals(0, settings.openAtNs(0));
        assertEquals(50_000_000L, settings.openAtNs(1));
        assertEquals(9_950_000_000L, settings.openAtNs(199));
    }

    @Test
    void durationsAndSizesReadAsPeopleWriteThem() {
        assertEquals(10_000_000_000L, DurationOption.parseNs("10s", "--ramp"));
        assertEquals(250_000_000L, DurationOption.parseNs("250ms", "--ramp"));
        assertEquals(1_500_000_000L, DurationOption.parseNs("1.5", "--ramp"));
        assertEquals(120_000_000_000L, DurationOption.parseNs("2m", "--duration"));
        assertEquals(0, DurationOption.parseNs("0s", "--ramp"));
        assertThrows(IllegalArgumentException.class, () -> DurationOption.parseNs("ten seconds", "--ramp"));
        assertEquals(4L << 20, ByteSizes.parse("4M", "--rate"));
        assertEquals(16L << 20, ByteSizes.parse("16MiB", "--buffer"));
        assertEquals(65_536, ByteSizes.parse("64k", "--buffer"));
        assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("0", "--rate"));
        assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("lots", "--rate"));
    }
}

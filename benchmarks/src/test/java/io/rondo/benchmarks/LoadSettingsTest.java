package io.rondo.benchmarks;

import io.rondo.client.protocol.ClientProfile;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LoadSettingsTest {

    @Test
    void opensSpreadEvenlyOverTheRamp() {
        LoadSettings settings = new LoadSettings("127.0.0.1", 8554, "a.webm", 200, 10_000_000_000L, 60_000_000_000L,
            new ClientProfile(4 << 20, 16 << 20), false, 1);
        assertEquals(0, settings.openAtNs(0));
        assertEquals(50_000_000L, settings.openAtNs(1));
        assertEquals(9_950_000_000L, settings.openAtNs(199));
    }

    @Test
    void durationsAndSizesReadAsPeopleWriteThem() {
        assertEquals(10_000_000_000L, Quantities.durationNs("10s", "--ramp"));
        assertEquals(250_000_000L, Quantities.durationNs("250ms", "--ramp"));
        assertEquals(1_500_000_000L, Quantities.durationNs("1.5", "--ramp"));
        assertEquals(120_000_000_000L, Quantities.durationNs("2m", "--duration"));
        assertEquals(0, Quantities.durationNs("0s", "--ramp"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.durationNs("ten seconds", "--ramp"));
        assertEquals(4L << 20, Quantities.bytes("4M", "--rate"));
        assertEquals(16L << 20, Quantities.bytes("16MiB", "--buffer"));
        assertEquals(65_536, Quantities.bytes("64k", "--buffer"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.bytes("0", "--rate"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.bytes("lots", "--rate"));
    }
}

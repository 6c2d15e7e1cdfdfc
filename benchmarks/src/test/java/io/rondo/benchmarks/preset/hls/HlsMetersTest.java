package io.rondo.benchmarks.preset.hls;

import org.junit.jupiter.api.Test;

import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Rondo's HLS meters read from Prometheus's text format: by labels in any order, absent when the server has none. */
class HlsMetersTest {

    private static final String METRICS = """
        # HELP rondo_hls_parts_total Parts answered, by where from
        # TYPE rondo_hls_parts_total counter
        rondo_hls_parts_total{disk="0",source="memory"} 1234.0
        rondo_hls_parts_total{source="disk",disk="0"} 5.0
        # TYPE rondo_hls_active gauge
        rondo_hls_active 17.0
        rondo_hls_active_peak 40.0
        """;

    @Test
    void aSampleIsFoundByItsNameAndLabels() {
        assertEquals(OptionalDouble.of(1234), HlsMeters.sample(METRICS, "rondo_hls_parts_total{source=\"memory\"}"));
        assertEquals(OptionalDouble.of(5), HlsMeters.sample(METRICS, "rondo_hls_parts_total{source=\"disk\"}"));
        assertEquals(OptionalDouble.of(17), HlsMeters.sample(METRICS, HlsMeters.SESSIONS));
    }

    @Test
    void aMeterTheServerDoesNotHaveIsAbsentNotZero() {
        assertEquals(OptionalDouble.empty(), HlsMeters.sample("rondo_streams_active 3\n", HlsMeters.SESSIONS));
        assertEquals(new HlsMeters.Parts(-1, 4), new HlsMeters.Parts(-1, 9).since(new HlsMeters.Parts(2, 5)));
        assertEquals(new HlsMeters.Parts(10, 4), new HlsMeters.Parts(12, 9).since(new HlsMeters.Parts(2, 5)));
    }
}

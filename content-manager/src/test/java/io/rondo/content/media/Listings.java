package io.rondo.content.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;

/** Compares what two files hold, stream by stream, naming the first entry that differs rather than printing all. */
public final class Listings {

    private Listings() {
    }

    /**
     * Asserts that {@code actual} lists the same entries as {@code expected} for every stream.
     *
     * @param unit what an entry is, e.g. {@code packet}
     */
    public static <K> void assertSame(Map<K, List<String>> expected, Map<K, List<String>> actual, String unit) {
        assertEquals(expected.keySet(), actual.keySet(), "the streams");
        assertFalse(expected.isEmpty(), "the source has " + unit + "s");
        for (K stream : expected.keySet()) {
            List<String> e = expected.get(stream);
            List<String> a = actual.get(stream);
            for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
                assertEquals(e.get(i), a.get(i), unit + " " + i + " of stream " + stream);
            }
            assertEquals(e.size(), a.size(), "the " + unit + "s of stream " + stream);
        }
    }
}

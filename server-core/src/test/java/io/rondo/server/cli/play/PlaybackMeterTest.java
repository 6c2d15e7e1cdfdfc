package io.rondo.server.cli.play;

import io.rondo.client.protocol.Data;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The meter on a clock stepped by hand: a stream of 1 s fragments at 8 Mbit/s (1,000,000 bytes of
 * media a second) with a 1000-byte init segment, accepted at 10 s.
 */
class PlaybackMeterTest {

    static final long SECOND = 1_000_000_000L;
    static final long ACCEPTED_NS = 10 * SECOND;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final PlaybackMeter meter = meter();

    /** The meter of a stream of 1 s fragments at 8 Mbit/s with a 1000-byte init segment, accepted at 10 s. */
    static PlaybackMeter meter() {
        return new PlaybackMeter(SECOND, 8_000_000, 1000, ACCEPTED_NS);
    }

    /** DATA of fragment {@code index} (presented at {@code index} seconds), due at {@code deadlineNs}. */
    static Data data(long index, long deadlineNs, int bytes) {
        return new Data(index, index, index * SECOND, deadlineNs, false, ByteBuffer.allocate(bytes));
    }

    private boolean arrivesAt(long nowNs, Data data) {
        clock.update(nowNs);
        return meter.received(data, clock.nanoTime());
    }

    @Test
    void aFragmentIsAGlitchOnlyWhenItArrivesPastItsDeadlineOnTheStreamClock() {
        assertFalse(arrivesAt(ACCEPTED_NS + SECOND, data(0, SECOND, 10)), "at the deadline is on time");
        assertTrue(arrivesAt(ACCEPTED_NS + 2 * SECOND + 1, data(1, 2 * SECOND, 10)), "1 ns past it is late");
        assertFalse(arrivesAt(ACCEPTED_NS + 3 * SECOND - 1, data(2, 3 * SECOND, 10)), "1 ns before it is on time");

        assertEquals(1, meter.glitches());
        assertEquals(3, meter.fragments());
    }

    @Test
    void theBufferIsMediaWrittenAheadOfRealTimePlaybackFromTheFirstFragment() {
        long first = 11 * SECOND;
        assertEquals(0, meter.bufferedNs(first), "nothing is buffered before the first fragment");
        arrivesAt(first, data(0, SECOND, 1000));
        arrivesAt(first + SECOND / 10, data(1, 2 * SECOND, 1000));
        arrivesAt(first + SECOND / 5, data(2, 3 * SECOND, 1000));

        assertEquals(3 * SECOND - SECOND / 5, meter.bufferedNs(first + SECOND / 5), "3 s written, 0.2 s played");
        assertEquals(2_800_000, meter.bufferedBytes(first + SECOND / 5), "2.8 s at 1,000,000 bytes a second");
        assertEquals(SECOND, meter.bufferedNs(first + 2 * SECOND));
        assertEquals(0, meter.bufferedNs(first + 5 * SECOND), "playback has caught up: an empty buffer, never less");
    }

    @Test
    void theBufferCountsFromTheFirstFragmentWrittenNotFromTheStartOfTheMedia() {
        long first = 11 * SECOND;
        arrivesAt(first, data(40, 41 * SECOND, 1000));

        assertEquals(SECOND, meter.bufferedNs(first), "a stream started at 40 s holds one fragment, not 41 s");
        assertEquals(41 * SECOND, meter.positionNs(), "written to the end of fragment 40");
    }

    @Test
    void theRateCountsOnlyTheLastFewSeconds() {
        arrivesAt(ACCEPTED_NS + SECOND / 100, data(0, SECOND, 9_000_000));
        assertEquals(9_000_000, meter.bytesPerSecond(clock.nanoTime()),
            "a fragment just after ACCEPT is 9,000,000 bytes in the last second, not 100 times that");
        for (int i = 1; i <= 4; i++) {
            arrivesAt(ACCEPTED_NS + i * SECOND, data(i, (i + 1) * SECOND, 1_200_000));
        }

        assertEquals(1_200_000, meter.bytesPerSecond(ACCEPTED_NS + 4 * SECOND),
            "the burst at ACCEPT is out of the window");
        assertEquals(900_000, meter.bytesPerSecond(ACCEPTED_NS + 5 * SECOND), "nothing arrived in the last second");
    }

    @Test
    void theMeanRateCountsEverythingSinceAcceptInitSegmentIncluded() {
        arrivesAt(ACCEPTED_NS + SECOND, data(0, SECOND, 500_000));
        arrivesAt(ACCEPTED_NS + 2 * SECOND, data(1, 2 * SECOND, 499_000));

        assertEquals(1_000_000, meter.bytes(), "the init segment and both fragments");
        assertEquals(250_000, meter.meanBytesPerSecond(ACCEPTED_NS + 4 * SECOND));
        assertEquals(4 * SECOND, meter.sinceAcceptedNs(ACCEPTED_NS + 4 * SECOND));
        assertEquals(1, meter.sinceAcceptedNs(ACCEPTED_NS), "never 0: the summary divides by it");
    }
}

package io.rondo.server.stream;

import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A connection's deadlines on a clock the test sets: an OPEN soon after connecting, then a frame each timeout. */
class ClientDeadlineTest {

    private static final long CLIENT_TIMEOUT_NS = 10_000_000_000L;
    private static final long OPEN_TIMEOUT_NS = 5_000_000_000L;

    private final CachedNanoClock clock = new CachedNanoClock();
    private ClientDeadline deadline;

    @BeforeEach
    void connect() {
        clock.update(Long.MAX_VALUE - 3_000_000_000L);
        deadline = new ClientDeadline(CLIENT_TIMEOUT_NS, OPEN_TIMEOUT_NS, clock.nanoTime());
    }

    private ClientDeadline.Missed after(long ns) {
        clock.advance(ns);
        return deadline.missed(clock.nanoTime());
    }

    @Test
    void aConnectionOwesAWholeOpenWithinTheOpenTimeout() {
        assertNull(after(OPEN_TIMEOUT_NS), "at the deadline it is still in time (the clock wraps meanwhile)");
        assertEquals(ClientDeadline.Missed.OPEN, after(1));
    }

    @Test
    void framesBeforeTheOpenDoNotPutTheOpenOff() {
        deadline.heard(clock.nanoTime());
        clock.advance(OPEN_TIMEOUT_NS - 1);
        deadline.heard(clock.nanoTime());
        assertEquals(ClientDeadline.Missed.OPEN, after(2));
    }

    @Test
    void aStreamSilentForJustUnderTheTimeoutLivesAndJustOverIsEnded() {
        clock.advance(1_000_000_000L);
        deadline.opening();
        assertNull(after(60_000_000_000L), "nothing is owed while the server prepares its answer");
        deadline.accepted(clock.nanoTime());
        assertNull(after(CLIENT_TIMEOUT_NS - 1));
        assertNull(after(1));
        assertEquals(ClientDeadline.Missed.FRAME, after(1));
        assertEquals(1, -deadline.remainingNs(clock.nanoTime()), "late by 1 ns");
    }

    @Test
    void aReportResetsTheTimeout() {
        deadline.opening();
        deadline.accepted(clock.nanoTime());
        clock.advance(CLIENT_TIMEOUT_NS - 1);
        deadline.heard(clock.nanoTime());
        assertEquals(CLIENT_TIMEOUT_NS, deadline.remainingNs(clock.nanoTime()), "the next look: a timeout away");
        assertNull(after(CLIENT_TIMEOUT_NS));
        assertEquals(ClientDeadline.Missed.FRAME, after(1));
    }

    @Test
    void aRefusedClientMayOpenAgainAfterItsRetryAfter() {
        deadline.opening();
        deadline.rejected(clock.nanoTime(), 3_000_000_000L);
        assertNull(after(3_000_000_000L + OPEN_TIMEOUT_NS));
        assertEquals(ClientDeadline.Missed.OPEN, after(1));
    }
}

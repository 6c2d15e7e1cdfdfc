package io.rondo.server.stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A client's REPORTs against what was sent to it. */
class ClientLagTest {

    @Test
    void farBehindHalvesTheRateThenEndsTheStreamUnlessItCatchesUp() {
        ClientLag lag = new ClientLag(1000);
        assertEquals(ClientLag.Verdict.KEEP_UP, lag.report(10_000, 8_000), "two fragments behind is allowed");
        assertEquals(1.0, lag.rateShare());
        assertEquals(ClientLag.Verdict.HALVE_RATE, lag.report(10_000, 7_999));
        assertEquals(0.5, lag.rateShare());
        assertEquals(ClientLag.Verdict.KEEP_UP, lag.report(12_000, 9_000), "second report: still warned");
        assertEquals(ClientLag.Verdict.END, lag.report(14_000, 10_000));
    }

    @Test
    void catchingUpRestoresTheFullRate() {
        ClientLag lag = new ClientLag(1000);
        lag.report(10_000, 5_000);
        assertEquals(ClientLag.Verdict.KEEP_UP, lag.report(11_000, 10_000));
        assertEquals(1.0, lag.rateShare());
        assertEquals(ClientLag.Verdict.HALVE_RATE, lag.report(20_000, 10_000), "a new warning starts over");
    }
}

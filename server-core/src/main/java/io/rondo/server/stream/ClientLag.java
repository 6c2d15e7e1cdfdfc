package io.rondo.server.stream;

/**
 * What a stream does about a client that falls behind what was sent (papers/004 Section 3.2): a
 * REPORT that shows it more than two of the largest fragments behind halves its rate (the
 * warning); still that far behind {@link #BEHIND_REPORTS} reports later, the stream is ended.
 * Caught up again, the client gets its full rate back. Event loop only.
 */
final class ClientLag {

    /** REPORTs in a row a client may be far behind (its rate halved) before its stream is ended. */
    static final int BEHIND_REPORTS = 3;

    /** What a REPORT leads to. */
    enum Verdict { KEEP_UP, HALVE_RATE, END }

    private final long thresholdBytes;
    private int reportsBehind;
    private double rateShare = 1;

    /** @param peakFragmentBytes the stream's largest fragment */
    ClientLag(long peakFragmentBytes) {
        this.thresholdBytes = 2 * Math.max(1, peakFragmentBytes);
    }

    /** A REPORT came: the client has received {@code receivedBytes} of the {@code sentBytes} sent. */
    Verdict report(long sentBytes, long receivedBytes) {
        long behind = sentBytes - receivedBytes;
        if (behind > thresholdBytes) {
            reportsBehind++;
            if (reportsBehind >= BEHIND_REPORTS) {
                return Verdict.END;
            }
            if (reportsBehind == 1) {
                rateShare = 0.5;
                return Verdict.HALVE_RATE;
            }
        } else if (behind <= thresholdBytes / 2) {
            reportsBehind = 0;
            rateShare = 1;
        }
        return Verdict.KEEP_UP;
    }

    /** The share of its declared rate the client is sent at now: 1, or 0.5 while it is behind. */
    double rateShare() {
        return rateShare;
    }
}

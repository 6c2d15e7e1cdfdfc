package io.rondo.server.stream;

/**
 * When a stream connection's client must next be heard from (docs/stream-protocol.md, "Limits
 * and timeouts"), so a silent client cannot hold a connection, or a stream's admission and
 * buffers, for ever. Before its stream is accepted a connection owes a whole OPEN within the open
 * timeout of connecting, or of a REJECT plus its retry-after; once accepted, a client frame
 * (REPORT included, paused or not) within the client timeout of the last one. While the server
 * prepares an OPEN's answer nothing is owed. Only whole frames count: half a frame is silence.
 *
 * <p>The caller reads the clock and passes {@code nowNs}; deadlines compare overflow-safely.
 * Event loop only.
 */
final class ClientDeadline {

    /** What the client failed to send in time. */
    enum Missed {
        /** No whole OPEN in time. */
        OPEN,
        /** No frame from an accepted stream's client in time. */
        FRAME
    }

    private final long clientTimeoutNs;
    private final long openTimeoutNs;
    private long deadlineNs;
    private Missed owed;

    /**
     * A connection made at {@code nowNs}: it owes an OPEN.
     *
     * @param clientTimeoutNs how long an accepted stream's client may be silent
     * @param openTimeoutNs   how long a connection may go without a whole OPEN
     */
    ClientDeadline(long clientTimeoutNs, long openTimeoutNs, long nowNs) {
        this.clientTimeoutNs = clientTimeoutNs;
        this.openTimeoutNs = openTimeoutNs;
        this.deadlineNs = nowNs + openTimeoutNs;
        this.owed = Missed.OPEN;
    }

    /** A whole client frame arrived at {@code nowNs}. */
    void heard(long nowNs) {
        if (owed == Missed.FRAME) {
            deadlineNs = nowNs + clientTimeoutNs;
        }
    }

    /** An OPEN arrived: nothing is owed until the server answers it. */
    void opening() {
        owed = null;
    }

    /** The stream was accepted at {@code nowNs}: from now on the client owes a frame each client timeout. */
    void accepted(long nowNs) {
        owed = Missed.FRAME;
        deadlineNs = nowNs + clientTimeoutNs;
    }

    /** The OPEN was refused at {@code nowNs}: another may come after the retry-after, and within the open timeout. */
    void rejected(long nowNs, long retryAfterNs) {
        owed = Missed.OPEN;
        deadlineNs = nowNs + retryAfterNs + openTimeoutNs;
    }

    /** What the client has failed to send by {@code nowNs}, or null while it is still in time. */
    Missed missed(long nowNs) {
        return owed != null && nowNs - deadlineNs > 0 ? owed : null;
    }

    /** How long after {@code nowNs} to look again: 0 or less if late, the open timeout if nothing is owed. */
    long remainingNs(long nowNs) {
        return owed == null ? openTimeoutNs : deadlineNs - nowNs;
    }
}

package io.rondo.server.stream;

import io.rondo.client.protocol.ClientProfile;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.scheduler.admission.ClientBuffers;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.exec.BufferPool;
import io.rondo.scheduler.exec.StreamBudget;
import io.rondo.server.config.ClientBufferUse;

import java.util.List;
import java.util.Locale;

/**
 * Which {@link BufferMode} a stream gets from what its client declared in OPEN (papers/004
 * Sections 4 and 5), and what that costs it in the pool. A client whose buffer holds
 * {@value #AHEAD_FRAGMENTS} of the object's largest fragments takes each fragment as soon as it
 * is read (ClBuf); one that also receives the largest fragment within a {@value #FAST_SHARE}th of
 * the round takes each at once at its rate (ClBufRate). Every other client keeps two buffers of
 * its own (DblBuf), as does every stream where {@code buffers.clientBuffers} says so.
 *
 * <p>A fragment of a ClBuf or ClBufRate stream is held after its read for at most its send at the
 * declared rate and twice the server's grace ({@link #graceNs}): the stream's guard looks once
 * its send and one grace have passed, and a client that has not taken it by then is ended, its
 * buffers freed within the second grace. That hold is what admission bounds the shared accounts by.
 *
 * @param buffers what admission charges the stream with
 * @param sendNs  the longest its largest fragment takes at the declared rate
 * @param graceNs how late past its send a fragment may leave for the server's own reasons
 * @param better  how the client would get a better mode, for a person; null for the best
 */
record ClientBuffering(ClientBuffers buffers, long sendNs, long graceNs, String better) {

    /** The largest fragments a client's buffer must hold to take its fragments as soon as they are read. */
    static final int AHEAD_FRAGMENTS = 3;

    /** A fast client receives the largest fragment within this fraction of the round. */
    static final int FAST_SHARE = 10;

    /** The least grace, for short rounds. */
    private static final long MIN_GRACE_NS = 5_000_000;

    /** Double buffering, for a stream whose client's buffer and rate are not used (a recording's viewer). */
    static final ClientBuffering DOUBLE = new ClientBuffering(ClientBuffers.DOUBLE, 0, 0, null);

    /**
     * The mode a stream of fragments of {@code peak} bytes at most gets, for a client that declared
     * {@code declared}, under {@code use}, in rounds of {@code roundNs}; {@code readSizes} are the
     * least fragment of each buffer size class its fragments use.
     */
    static ClientBuffering choose(ClientBufferUse use, ClientProfile declared, long peak, List<Long> readSizes,
                                  long roundNs) {
        long rate = declared.maxReceiveBytesPerSecond();
        long sendNs = (long) Math.ceil(peak * 1e9 / rate);
        long fastRate = (long) Math.ceil(peak * 1e9 * FAST_SHARE / roundNs);
        String fast = String.format(Locale.ROOT, "a rate of at least %d bytes/s (its largest fragment, %d bytes, "
            + "within a tenth of the %d ms round)", fastRate, peak, roundNs / 1_000_000);
        if (use == ClientBufferUse.OFF) {
            return new ClientBuffering(ClientBuffers.DOUBLE, sendNs, 0, "buffers.clientBuffers is off on this "
                + "server: every stream keeps two buffers of its own");
        }
        if (declared.bufferBytes() < AHEAD_FRAGMENTS * peak) {
            return new ClientBuffering(ClientBuffers.DOUBLE, sendNs, 0, "a client declaring a buffer of at least "
                + AHEAD_FRAGMENTS * peak + " bytes (" + AHEAD_FRAGMENTS + " of the largest fragments) gets ClBuf"
                + (use == ClientBufferUse.RATE ? ", and with " + fast + " ClBufRate" : ""));
        }
        long graceNs = Math.max(MIN_GRACE_NS, roundNs / 200);
        long bufferBytes = BufferPool.classCapacity((int) Math.min(1 << 30, peak + 2L * DiskIo.ALIGNMENT));
        boolean rateFast = sendNs <= roundNs / FAST_SHARE;
        BufferMode mode = use == ClientBufferUse.RATE && rateFast ? BufferMode.CLIENT_RATE : BufferMode.CLIENT_BUFFER;
        String better = mode == BufferMode.CLIENT_RATE ? null : use == ClientBufferUse.RATE
            ? "a client declaring " + fast + " gets ClBufRate"
            : "buffers.clientBuffers is buffer on this server: ClBufRate is off";
        return new ClientBuffering(new ClientBuffers(mode, bufferBytes, sendNs + 2 * graceNs, readSizes), sendNs,
            graceNs, better);
    }

    /** The stream's mode. */
    BufferMode mode() {
        return buffers.mode();
    }

    /** Whether its fragments are drawn on a shared account, and so guarded. */
    boolean shares() {
        return buffers.mode() != BufferMode.DOUBLE;
    }

    /** What the pool reserves for a stream whose fragments' aligned spans are at most {@code spanBytes}. */
    StreamBudget budget(int spanBytes) {
        return shares() ? StreamBudget.sharing(mode().ownBuffers(), spanBytes, mode().sharedAccount())
            : StreamBudget.doubleBuffer(spanBytes);
    }

    /** The mode for a person: {@code ClBufRate (no buffer of its own)}, and how to get a better one. */
    String describe() {
        String own = switch (mode()) {
            case DOUBLE -> "two buffers of its own";
            case CLIENT_BUFFER -> "one buffer of its own, its second shared";
            case CLIENT_RATE -> "no buffer of its own, both shared";
        };
        return mode().paperName() + " (" + own + ")" + (better == null ? "" : "; " + better);
    }
}

package io.rondo.client;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.RejectReason;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link StreamClient}'s stream picked up again after its connection drops, as its
 * {@link Reconnect} says: which failures are a lost connection, the OPEN at the fragment after the
 * last received, the attempts and their backoff, and the {@link Gap} each loss leaves. Used by the
 * client's reading thread only; the gaps may be read from any.
 */
final class Resumption {

    /** Connects again and OPENs, following REDIRECTs, as the client does. */
    interface Reopen {
        Accept reopen(Open open) throws IOException, StreamRejectedException;
    }

    /** A lost connection not yet followed by DATA: when it was lost, and why. */
    private record Loss(long atMillis, String cause) {
    }

    private final Reconnect policy;
    private final String address;
    private final List<Gap> gaps = new CopyOnWriteArrayList<>();
    private volatile int reconnects;
    private Data lastData;
    private Loss loss;
    /** After a reconnection, DATA up to this fragment (already received) is dropped; -1 for none. */
    private long receivedUpTo = -1;

    /** @param address {@code HOST:PORT} the client reconnects to, for messages */
    Resumption(Reconnect policy, String address) {
        this.policy = policy;
        this.address = address;
    }

    /**
     * Whether {@code e} lost the connection (reset, closed, silent, or the server stopping) rather
     * than ended the stream, and the policy reconnects.
     */
    boolean lost(IOException e) {
        if (policy.attempts() == 0) {
            return false;
        }
        if (e instanceof StreamErrorException error) {
            return error.error().errorCode() == ErrorCode.SHUTTING_DOWN;
        }
        return !(e instanceof ProtocolException protocol) || protocol.code() == ErrorCode.TRUNCATED_FRAME;
    }

    /**
     * Opens the stream again, at the fragment after the last received.
     *
     * @param cause    why the connection was lost
     * @param opened   the OPEN the stream was first accepted for
     * @param accepted the stream's ACCEPT, whose fragment duration places the next fragment
     * @return the new ACCEPT; null if that position is past the object's end (the loss came after its
     *     last fragment), the stream then over
     * @throws IOException if every attempt failed, or the stream cannot be opened any more
     */
    Accept resume(IOException cause, Open opened, Accept accepted, Reopen reopen) throws IOException {
        long lostAtMillis = policy.clock().millis();
        Open again = lastData == null ? opened : opened.at(lastData.presentationNs() + accepted.fragmentDurationNs());
        IOException last = cause;
        for (int attempt = 1; attempt <= policy.attempts(); attempt++) {
            pause(policy.backoffBefore(attempt));
            try {
                Accept accept = reopen.reopen(again);
                reconnects++;
                loss = new Loss(lostAtMillis, cause.getMessage());
                receivedUpTo = lastData == null ? -1 : lastData.fragmentIndex();
                return accept;
            } catch (StreamRejectedException e) {
                RejectReason reason = e.reject().reason();
                if (reason == RejectReason.START_OUT_OF_RANGE) {
                    return null;
                }
                last = new IOException(e.getMessage(), e);
                if (!reason.transientShortage()) {
                    break;
                }
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IOException("lost the stream of " + opened.objectName() + " (" + cause.getMessage()
                + ") and could not open it again at " + address + ": " + last.getMessage(), last);
    }

    /**
     * A DATA the reader is to get: null if it was received before a reconnection (the server starts
     * again at a keyframe, which may be before the next fragment); the first after a loss closes its gap.
     */
    Data received(Data data) {
        if (data.fragmentIndex() <= receivedUpTo) {
            return null;
        }
        receivedUpTo = -1;
        if (loss != null) {
            gaps.add(new Gap(Instant.ofEpochMilli(loss.atMillis()),
                    Duration.ofMillis(Math.max(0, policy.clock().millis() - loss.atMillis())),
                    lastData == null ? -1 : lastData.fragmentIndex(), data.fragmentIndex(), loss.cause()));
            loss = null;
        }
        lastData = data;
        return data;
    }

    List<Gap> gaps() {
        return List.copyOf(gaps);
    }

    int reconnects() {
        return reconnects;
    }

    private static void pause(Duration wait) throws InterruptedIOException {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to reconnect");
        }
    }
}

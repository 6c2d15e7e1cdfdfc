package io.rondo.server.stream;

import io.rondo.client.protocol.ErrorCode;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.Cadence;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A stream being served, whatever carries it: the stream protocol's {@link StreamSession} (TCP or
 * WebSocket) or an {@link HlsSession} (HTTP Live Streaming). The round clock asks each for its
 * C-requests; stream combination, the admin API and a stopping server reach every one the same way.
 */
interface Served {

    /** The round clock asks: this stream's C-requests on {@code disk} this round, added to {@code into}. */
    void plan(int disk, long round, long startNs, List<ContinuousRequest> into);

    /** The bytes a second it plays at if its cadence may change (papers/003); 0 if it reads every round. */
    long combinableBytesPerSecond();

    /** Gives the stream a new cadence; false, and nothing changed, if it cannot take it. Any thread. */
    boolean recadence(Cadence next);

    /** Ends the stream from any thread: the server is stopping, or an operator ends it. */
    void endWith(ErrorCode code, String why);

    /** The catalog id of the object it reads, or -1 before it is admitted. */
    long objectId();

    /** Its stream id, or 0 before it is admitted. */
    long id();

    /** The stream as the admin API shows it, taken on its event loop. */
    CompletableFuture<StreamStatus> status();
}

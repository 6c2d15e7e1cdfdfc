package io.rondo.server.stream;

import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.exec.RoundClock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streams being served, and the round plan that asks each of them for its C-request: once a
 * round, the fragment due in the next round (double buffering), on the disk that holds it.
 */
final class StreamRegistry implements RoundClock.RoundPlan {

    private final List<StreamSession> streams = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicLong requestIds = new AtomicLong(1L << 40);
    private final AtomicLong glitches = new AtomicLong();

    int nextId() {
        return ids.incrementAndGet();
    }

    long nextRequestId() {
        return requestIds.incrementAndGet();
    }

    void add(StreamSession stream) {
        streams.add(stream);
    }

    void remove(StreamSession stream) {
        streams.remove(stream);
    }

    int active() {
        return streams.size();
    }

    void glitch() {
        glitches.incrementAndGet();
    }

    /** Glitches of every stream so far: fragments not on the wire by their deadline. */
    long glitches() {
        return glitches.get();
    }

    /** Tells every stream the server is stopping. */
    void shutdownAll() {
        streams.forEach(StreamSession::serverShuttingDown);
    }

    @Override
    public List<? extends ContinuousRequest> continuousFor(int disk, long round, long startNs) {
        List<ContinuousRequest> requests = new ArrayList<>();
        for (StreamSession stream : streams) {
            ContinuousRequest request = stream.plan(disk, round, startNs);
            if (request != null) {
                requests.add(request);
            }
        }
        return requests;
    }
}

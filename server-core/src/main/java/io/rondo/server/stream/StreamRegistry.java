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

    /** Init segments of objects streamed lately, by id, with the ETag they belong to. */
    private final java.util.Map<Long, Object[]> initSegments = java.util.Collections.synchronizedMap(
        new java.util.LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(java.util.Map.Entry<Long, Object[]> eldest) {
                return size() > INIT_SEGMENTS_KEPT;
            }
        });

    /** How many objects' init segments are kept in memory. */
    static final int INIT_SEGMENTS_KEPT = 256;

    /** The init segment of an object streamed lately, if its content has not changed since; else null. */
    byte[] initSegment(io.rondo.content.model.MediaObject object) {
        Object[] kept = initSegments.get(object.id());
        return kept != null && kept[0].equals(object.etag()) ? (byte[]) kept[1] : null;
    }

    void rememberInitSegment(io.rondo.content.model.MediaObject object, byte[] bytes) {
        initSegments.put(object.id(), new Object[] {object.etag(), bytes});
    }

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

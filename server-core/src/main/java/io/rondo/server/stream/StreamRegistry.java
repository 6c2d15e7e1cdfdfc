package io.rondo.server.stream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.rondo.content.model.MediaObject;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.exec.RoundClock;

import io.rondo.server.observe.AdmissionLog;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The streams being served, and the round plan that asks each of them for its C-request: once a
 * round, the fragment due in the next round (double buffering), on the disk that holds it.
 */
final class StreamRegistry implements RoundClock.RoundPlan {

    private final List<StreamSession> streams = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong requestIds = new AtomicLong(1L << 40);
    private final AtomicLong glitches = new AtomicLong();
    private final LongAdder sentBytes = new LongAdder();
    private final AdmissionLog log = new AdmissionLog(Clock.systemUTC());

    /** An object's init segment as read, and the content version it belongs to. */
    private record InitSegment(String etag, byte[] bytes) {
    }

    /** Init segments of objects streamed lately, by object id: the least recently used goes first. */
    private final Cache<Long, InitSegment> initSegments;

    /** @param initSegmentsKept how many objects' init segments stay in memory */
    StreamRegistry(int initSegmentsKept) {
        this.initSegments = Caffeine.newBuilder().maximumSize(initSegmentsKept).build();
    }

    /** The init segment of an object streamed lately, if its content has not changed since; else null. */
    byte[] initSegment(MediaObject object) {
        InitSegment kept = initSegments.getIfPresent(object.id());
        return kept != null && kept.etag().equals(object.etag()) ? kept.bytes() : null;
    }

    void rememberInitSegment(MediaObject object, byte[] bytes) {
        initSegments.put(object.id(), new InitSegment(object.etag(), bytes));
    }

    /** Every admission decision and stream end. */
    AdmissionLog log() {
        return log;
    }

    /** The streams being served now. */
    List<StreamSession> streams() {
        return List.copyOf(streams);
    }

    long nextId() {
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

    /** A stream sent a fragment of {@code bytes}. */
    void sent(long bytes) {
        sentBytes.add(bytes);
    }

    /** Fragment bytes every stream sent so far. */
    long sentBytes() {
        return sentBytes.sum();
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

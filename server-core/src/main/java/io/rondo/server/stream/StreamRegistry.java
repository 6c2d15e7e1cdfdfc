package io.rondo.server.stream;

import io.rondo.client.protocol.ErrorCode;
import io.rondo.scheduler.ContinuousRequest;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.scheduler.exec.RoundClock;
import io.rondo.server.observe.AdmissionLog;
import org.agrona.concurrent.EpochClock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The streams being served, and the round plan that asks each of them for its C-request: once a
 * round, the fragment due in the next round (double buffering), on the disk that holds it.
 */
final class StreamRegistry implements RoundClock.RoundPlan {

    private final List<Served> streams = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong glitches = new AtomicLong();
    private final LongAdder sentBytes = new LongAdder();
    private final Map<BufferMode, AtomicInteger> byMode = new EnumMap<>(BufferMode.class);
    private final AtomicLong guardEnded = new AtomicLong();
    private final AdmissionLog log;

    /** @param epochClock the wall clock the admission log stamps its decisions with */
    StreamRegistry(EpochClock epochClock) {
        this.log = new AdmissionLog(epochClock);
        for (BufferMode mode : BufferMode.values()) {
            byMode.put(mode, new AtomicInteger());
        }
    }

    /** A stream was admitted with its buffers reserved as {@code mode} says. */
    void count(BufferMode mode) {
        byMode.get(mode).incrementAndGet();
    }

    /** A stream admitted as {@code mode} ended. */
    void uncount(BufferMode mode) {
        byMode.get(mode).decrementAndGet();
    }

    /** Admitted streams whose buffers are reserved as {@code mode} says. */
    int streamsIn(BufferMode mode) {
        return byMode.get(mode).get();
    }

    /** A stream's guard ended it: its client did not take a fragment at its declared rate. */
    void guardEnded() {
        guardEnded.incrementAndGet();
    }

    /** Streams their guard ended so far. */
    long guardEndedStreams() {
        return guardEnded.get();
    }

    /** Every admission decision and stream end. */
    AdmissionLog log() {
        return log;
    }

    /** The streams being served now. */
    List<Served> streams() {
        return List.copyOf(streams);
    }

    long nextId() {
        return ids.incrementAndGet();
    }

    void add(Served stream) {
        streams.add(stream);
    }

    void remove(Served stream) {
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
        streams.forEach(stream -> stream.endWith(ErrorCode.SHUTTING_DOWN, "the server is shutting down"));
    }

    /**
     * The streams stream combination may give a new cadence (papers/003): those reading stored
     * objects, by id, with their bytes a second; each change resizes the stream's buffers first.
     */
    CycleControl.Streams combinable() {
        return new CycleControl.Streams() {
            private final Map<Long, Served> byId = new HashMap<>();

            @Override
            public Map<Long, Long> combinable() {
                byId.clear();
                Map<Long, Long> rates = new LinkedHashMap<>();
                for (Served stream : streams) {
                    long rate = stream.combinableBytesPerSecond();
                    if (rate > 0) {
                        byId.put(stream.id(), stream);
                        rates.put(stream.id(), rate);
                    }
                }
                return rates;
            }

            @Override
            public boolean recadence(long id, Cadence cadence) {
                Served stream = byId.get(id);
                return stream != null && stream.recadence(cadence);
            }
        };
    }

    @Override
    public List<? extends ContinuousRequest> continuousFor(int disk, long round, long startNs) {
        List<ContinuousRequest> requests = new ArrayList<>();
        for (Served stream : streams) {
            stream.plan(disk, round, startNs, requests);
        }
        return requests;
    }
}

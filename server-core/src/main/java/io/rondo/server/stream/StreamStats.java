package io.rondo.server.stream;

import io.rondo.client.protocol.ClientProfile;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.content.model.MediaObject;

import java.time.Instant;

/**
 * What one stream has done, for the admin API ({@link StreamStatus}) and the log line at its end:
 * when it opened, what it sent, how late, and its glitches (fragments not on the wire by their
 * deadline). Every count also goes to the server's totals ({@link StreamRegistry}). The caller
 * reads the clock and passes {@code nowNs}. Event loop only.
 */
final class StreamStats {

    private final StreamRegistry registry;
    private long openNs;
    private long openedAtMs;
    private long firstDataNs;
    private long bytesSent;
    private long fragmentsSent;
    private long glitches;
    private long positionNs;
    private long maxLatenessNs = Long.MIN_VALUE;

    /** @param registry the server's streams, which total every stream's counts */
    StreamStats(StreamRegistry registry) {
        this.registry = registry;
    }

    /** OPEN arrived at {@code nowNs}, {@code epochMs} on the wall clock. */
    void opened(long nowNs, long epochMs) {
        openNs = nowNs;
        openedAtMs = epochMs;
    }

    /** A DATA frame of {@code bytes} of fragment bytes, presented at {@code fragmentStartNs}, was written. */
    void sent(int bytes, long fragmentStartNs, long deadlineNs, long nowNs) {
        if (firstDataNs == 0) {
            firstDataNs = nowNs;
        }
        bytesSent += bytes;
        registry.sent(bytes);
        fragmentsSent++;
        positionNs = fragmentStartNs;
        maxLatenessNs = Math.max(maxLatenessNs, nowNs - deadlineNs);
    }

    /** A fragment was not on the wire by its deadline. */
    void glitch() {
        glitches++;
        registry.glitch();
    }

    /** Whether a DATA frame has been sent. */
    boolean sending() {
        return firstDataNs != 0;
    }

    long bytesSent() {
        return bytesSent;
    }

    /** How the stream ended, for the log: bytes, glitches, and OPEN to the first DATA. */
    String summary() {
        return bytesSent + " bytes, " + glitches + " glitches, initial latency "
            + (firstDataNs == 0 ? "-" : String.format("%.1f", (firstDataNs - openNs) / 1e6)) + " ms";
    }

    /** The stream as the admin API shows it; {@code profile} null for a client that declared none. */
    StreamStatus status(long id, MediaObject object, String client, String transport, String state,
                        ClientProfile profile, BufferMode mode) {
        return new StreamStatus(id, object.name(), client, transport, state,
            Instant.ofEpochMilli(openedAtMs).toString(), positionNs / 1e9,
            profile == null ? null
                : new StreamStatus.Profile(profile.maxReceiveBytesPerSecond(), profile.bufferBytes()),
            mode.label(),
            object.placement().files().stream().map(file -> file.disk()).distinct().sorted().toList(), bytesSent,
            fragmentsSent, glitches, maxLatenessNs == Long.MIN_VALUE ? null : maxLatenessNs / 1e6,
            firstDataNs == 0 ? null : (firstDataNs - openNs) / 1e6);
    }
}

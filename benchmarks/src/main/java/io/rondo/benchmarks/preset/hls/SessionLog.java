package io.rondo.benchmarks.preset.hls;

import io.rondo.benchmarks.load.paced.DelayLog;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one phase's sessions saw, thread-safe: every part's response time (request sent to last
 * byte) and the client's own wake-up delays in a {@link DelayLog}, with its failed answers (a
 * status other than the one expected, a body of another length, a broken connection); the parts
 * answered after their own duration; the sessions admitted and those refused with 503.
 */
final class SessionLog {

    private final DelayLog parts = new DelayLog();
    private final AtomicLong late = new AtomicLong();
    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private volatile String firstRefusal;

    /** The parts' response times, wake-up delays, bytes and failed answers. */
    DelayLog parts() {
        return parts;
    }

    /** A part answered in full after {@code responseNs}; late if that is more than its {@code durationNs}. */
    void part(long wokeLateNs, long responseNs, long durationNs, long bytes) {
        parts.wokeLate(wokeLateNs);
        parts.record(responseNs, bytes);
        if (responseNs > durationNs) {
            late.incrementAndGet();
        }
    }

    /** An answer that was not what the client asked for, or no answer. */
    void failed(String message) {
        parts.failed(message);
    }

    /** A session's playlists were answered: it plays. */
    void admitted() {
        admitted.incrementAndGet();
    }

    /** A session's first playlist request was refused (503) with {@code reason}. */
    void refused(String reason) {
        if (refused.getAndIncrement() == 0) {
            firstRefusal = reason;
        }
    }

    /** Parts answered after their duration. */
    long late() {
        return late.get();
    }

    /** Sessions whose playlists were answered. */
    long admittedCount() {
        return admitted.get();
    }

    /** Sessions refused with 503. */
    long refusedCount() {
        return refused.get();
    }

    /** The first refusal's reason, as the server gave it; null if none was refused. */
    String firstRefusal() {
        return firstRefusal;
    }
}

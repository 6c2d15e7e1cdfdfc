package io.rondo.benchmarks.load.paced;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * The delays of one kind of request in one phase of the run: the jitter of paced stream reads
 * (completion minus due time), or the service time of greedy downloads (request to last byte),
 * to three significant digits, with each stream's RFC 3550 jitter and the bytes read. Thread-safe:
 * every reader of the phase records here.
 */
public final class DelayLog {

    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram delays = new Histogram(SIGNIFICANT_DIGITS);
    private final Histogram wakeUps = new Histogram(SIGNIFICANT_DIGITS);
    private final List<Double> streamJitterNs = new ArrayList<>();
    private long bytes;
    private long failures;
    private String firstFailure;

    /** Records each paced read's jitter (completion minus due time) and its thread's wake-up delay here. */
    public PacedReader.ReadListener pacedReads() {
        return (dueNs, wokeNs, doneNs) -> {
            record(doneNs - dueNs, 0);
            wokeLate(wokeNs - dueNs);
        };
    }

    /** One request that took {@code delayNs} (negative counts as 0) and read {@code bytesRead}. */
    public synchronized void record(long delayNs, long bytesRead) {
        delays.recordValue(Math.max(0, delayNs));
        bytes += bytesRead;
    }

    /** A paced read's thread woke {@code delayNs} after the read was due. */
    public synchronized void wokeLate(long delayNs) {
        wakeUps.recordValue(Math.max(0, delayNs));
    }

    /** A copy of the paced reads' wake-up delays, in nanoseconds; empty for greedy reads. */
    public synchronized Histogram wakeUps() {
        return wakeUps.copy();
    }

    /** A stream's reads are over: its RFC 3550 interarrival jitter. */
    public synchronized void streamEnded(InterarrivalJitter jitter) {
        if (jitter.count() >= 2) {
            streamJitterNs.add(jitter.jitterNs());
        }
    }

    /** A request failed; the first failure's message is kept. */
    public synchronized void failed(String message) {
        if (failures == 0) {
            firstFailure = message;
        }
        failures++;
    }

    /** A copy of the delays, in nanoseconds. */
    public synchronized Histogram delays() {
        return delays.copy();
    }

    /** Each stream's RFC 3550 jitter, in nanoseconds. */
    public synchronized List<Double> streamJitterNs() {
        return List.copyOf(streamJitterNs);
    }

    /** Bytes read by the requests recorded. */
    public synchronized long bytes() {
        return bytes;
    }

    /** Requests that failed. */
    public synchronized long failures() {
        return failures;
    }

    /** The first failure's message; null if none failed. */
    public synchronized String firstFailure() {
        return firstFailure;
    }
}

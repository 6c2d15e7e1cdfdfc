package io.rondo.benchmarks.load.stream;

import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.RejectReason;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the players of a stream load run saw, gathered as it happens: every fragment's lateness,
 * initial latencies, REJECTs by reason and ERRORs by code (each with its first message), bytes
 * per second of the run, and one record per stream when it ends. The event loops of all streams
 * record here; every method is thread-safe. {@link LoadSummary} reads it once the run is over.
 */
public final class LoadResults {

    private static final int SIGNIFICANT_DIGITS = 3;

    /** How a stream ended. */
    enum Outcome {
        /** The server sent END after the object's last fragment. */
        ENDED("END"),
        /** The stream played its --duration; the client sent CLOSE. */
        CLOSED("closed at --duration"),
        /** Never admitted: the server sent REJECT (and, with --retry, the retries ran out). */
        REJECTED("rejected"),
        /** The server sent ERROR. */
        ERROR("ERROR"),
        /** The connection broke, or the server closed it with no END or ERROR. */
        LOST("connection lost"),
        /** The server broke the stream protocol. */
        PROTOCOL_FAULT("protocol fault"),
        /** The client could not connect. */
        CONNECT_FAILED("connect failed"),
        /** No ACCEPT or REJECT came within --duration. */
        NO_ANSWER("no answer to OPEN"),
        /** The run was stopped (Ctrl-C, or it overran) before the stream ended. */
        STOPPED("stopped");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        /** The outcome for people. */
        String label() {
            return label;
        }
    }

    /**
     * One stream's account, when it has ended.
     *
     * @param index the stream's number in the run, from 0
     * @param outcome how it ended
     * @param detail what the server or the connection said, if anything; may be null
     * @param admitted whether an OPEN was answered with ACCEPT
     * @param rejects REJECTs received, retries included
     * @param bitsPerSecond the object's mean bit rate from ACCEPT; 0 if not admitted
     * @param fragments DATA received
     * @param bytes DATA fragment bytes received
     * @param lateFragments DATA whose last byte arrived after its deadline
     * @param missingFragments fragment indexes skipped between consecutive DATA (none should be)
     * @param sequenceFaults DATA whose sequence was not one more than the one before
     * @param openToAcceptNs from the OPEN that was admitted to its ACCEPT; -1 if none
     * @param openToFirstDataNs from that OPEN to the first DATA; -1 if none
     * @param mediaNs media time received from the second DATA to the last
     * @param wallNs wall time from the second DATA's arrival to the last's
     * @param reconnects how many times the stream was opened again after its connection was lost
     * @param gaps the losses that were followed by DATA again
     * @param longestGapNs the longest of them, from the loss to the next DATA
     */
    record StreamRecord(int index, Outcome outcome, String detail, boolean admitted, int rejects, long bitsPerSecond,
                        long fragments, long bytes, long lateFragments, long missingFragments, long sequenceFaults,
                        long openToAcceptNs, long openToFirstDataNs, long mediaNs, long wallNs, int reconnects,
                        int gaps, long longestGapNs) {

        /** A stream that never sent OPEN: it ended as {@code outcome} before it could. */
        static StreamRecord unopened(int index, Outcome outcome, String detail) {
            return new StreamRecord(index, outcome, detail, false, 0, 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0);
        }

        /**
         * Media seconds received per wall second after the start, from the second DATA on (the
         * first fragments of a stream go at once, ahead of the rounds): about 1 for a stream that
         * follows the clock; NaN with fewer than three DATA.
         */
        double mediaWallRatio() {
            return fragments >= 3 && wallNs > 0 ? (double) mediaNs / wallNs : Double.NaN;
        }
    }

    /** How often something happened, and what it said the first time. */
    static final class Tally {
        private long count;
        private String firstMessage;

        private void add(String message) {
            if (count == 0) {
                firstMessage = message;
            }
            count++;
        }

        /** How often. */
        long count() {
            return count;
        }

        /** The first occurrence's message; may be null or empty. */
        String firstMessage() {
            return firstMessage;
        }
    }

    private final int requested;
    private final long runStartNs;
    private final Lateness lateness = new Lateness();
    private final Histogram toAccept = new Histogram(SIGNIFICANT_DIGITS);
    private final Histogram toFirstData = new Histogram(SIGNIFICANT_DIGITS);
    private final Histogram loopDelay = new Histogram(SIGNIFICANT_DIGITS);
    private final Map<RejectReason, Tally> rejects = new EnumMap<>(RejectReason.class);
    private final Map<Integer, Tally> errors = new TreeMap<>();
    private final List<StreamRecord> streams = new ArrayList<>();
    private final long[] bytesBySecond;
    private final CountDownLatch ended;
    private int opened;
    private int admitted;
    private long lastArrivalNs;
    private long worstLoopDelayNs;
    private long worstLoopDelayAtNs;
    private boolean anyArrival;

    /**
     * @param requested how many streams the run opens
     * @param runStartNs when the run started, on the clock the players read
     * @param runLengthNs about how long the run lasts, to size the bytes-per-second record
     */
    LoadResults(int requested, long runStartNs, long runLengthNs) {
        this.requested = requested;
        this.runStartNs = runStartNs;
        this.bytesBySecond = new long[(int) Math.min(1 << 20, runLengthNs / 1_000_000_000L + 120)];
        this.ended = new CountDownLatch(requested);
    }

    /** A player sent its first OPEN. */
    synchronized void streamOpened() {
        opened++;
    }

    /** An OPEN was answered with ACCEPT, {@code openToAcceptNs} after it went. */
    synchronized void accepted(long openToAcceptNs) {
        admitted++;
        toAccept.recordValue(Math.max(0, openToAcceptNs));
    }

    /** A stream's first DATA arrived, {@code openToFirstDataNs} after its admitted OPEN went. */
    synchronized void firstData(long openToFirstDataNs) {
        toFirstData.recordValue(Math.max(0, openToFirstDataNs));
    }

    /** An OPEN was answered with REJECT. */
    synchronized void rejected(RejectReason reason, String message) {
        rejects.computeIfAbsent(reason, r -> new Tally()).add(message);
    }

    /** The server sent ERROR. */
    synchronized void error(int code, String message) {
        errors.computeIfAbsent(code, c -> new Tally()).add(message);
    }

    /** A DATA's last byte arrived at {@code arrivalNs}, {@code latenessNs} after its deadline. */
    synchronized void fragment(long latenessNs, long bytes, long arrivalNs) {
        lateness.record(latenessNs);
        int second = (int) Math.max(0, Math.min(bytesBySecond.length - 1, (arrivalNs - runStartNs) / 1_000_000_000L));
        bytesBySecond[second] += bytes;
        lastArrivalNs = arrivalNs;
        anyArrival = true;
    }

    /** The client's own event loop ran a timer at {@code nowNs}, {@code delayNs} after it was due. */
    synchronized void loopDelay(long delayNs, long nowNs) {
        loopDelay.recordValue(Math.max(0, delayNs));
        if (delayNs > worstLoopDelayNs) {
            worstLoopDelayNs = delayNs;
            worstLoopDelayAtNs = nowNs;
        }
    }

    /** When, after the run started, the client's event loop was furthest behind. */
    synchronized long worstLoopDelayAfterStartNs() {
        return worstLoopDelayAtNs - runStartNs;
    }

    /** A stream ended; each stream ends once. */
    void streamEnded(StreamRecord record) {
        synchronized (this) {
            streams.add(record);
        }
        ended.countDown();
    }

    /**
     * Waits for every stream to end.
     *
     * @return whether they all did within the time
     */
    boolean awaitAllEnded(long timeoutNs) throws InterruptedException {
        return ended.await(timeoutNs, TimeUnit.NANOSECONDS);
    }

    /** Streams asked for. */
    int requested() {
        return requested;
    }

    /** When the run started, on the players' clock. */
    long runStartNs() {
        return runStartNs;
    }

    /** Streams that have sent OPEN. */
    synchronized int openedSoFar() {
        return opened;
    }

    /** Streams that have ended so far. */
    synchronized int endedSoFar() {
        return streams.size();
    }

    /** ACCEPTs received so far. */
    synchronized int admittedSoFar() {
        return admitted;
    }

    /** Lateness of every fragment received. */
    Lateness lateness() {
        return lateness;
    }

    /** A copy of the OPEN-to-ACCEPT latencies, in nanoseconds. */
    synchronized Histogram toAccept() {
        return toAccept.copy();
    }

    /** A copy of the OPEN-to-first-DATA latencies, in nanoseconds. */
    synchronized Histogram toFirstData() {
        return toFirstData.copy();
    }

    /** A copy of the client's event-loop delays, in nanoseconds. */
    synchronized Histogram loopDelays() {
        return loopDelay.copy();
    }

    /** REJECTs received, by reason, in the protocol's order. */
    synchronized Map<RejectReason, Tally> rejects() {
        return new LinkedHashMap<>(rejects);
    }

    /** ERRORs received, by code. */
    synchronized Map<Integer, Tally> errors() {
        return new LinkedHashMap<>(errors);
    }

    /** The streams that have ended, by index. */
    synchronized List<StreamRecord> streams() {
        List<StreamRecord> copy = new ArrayList<>(streams);
        copy.sort(Comparator.comparingInt(StreamRecord::index));
        return copy;
    }

    /** DATA bytes received in each second of the run, up to the last second that received any. */
    synchronized long[] bytesBySecond() {
        int last = bytesBySecond.length - 1;
        while (last >= 0 && bytesBySecond[last] == 0) {
            last--;
        }
        long[] copy = new long[last + 1];
        System.arraycopy(bytesBySecond, 0, copy, 0, copy.length);
        return copy;
    }

    /** When the last DATA arrived; the run's start if none did. */
    synchronized long lastArrivalNs() {
        return anyArrival ? lastArrivalNs : runStartNs;
    }

    /** An ERROR code's name, or its number in hex for a code the protocol does not define. */
    static String errorName(int code) {
        ErrorCode known = ErrorCode.ofCode(code);
        return known != null ? known.name() : String.format("0x%04x", code);
    }
}

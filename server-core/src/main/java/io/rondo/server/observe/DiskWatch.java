package io.rondo.server.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.rondo.scheduler.RoundSummary;
import io.rondo.scheduler.ScheduleObserver;
import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What one disk did: its rounds (the last {@link #KEPT_ROUNDS}, and counts since the start) and
 * the response times of its D-requests against the bound. Its disk's scheduler reports to it on
 * the disk's executor thread, once per round and once per D-request: counting is a few field
 * writes there, and the metrics it feeds are Micrometer's own lock-free meters.
 *
 * <p>Readers on other threads (the admin API) take copies under the object's monitor, which the
 * executor holds only to append one round or record one response.
 */
public final class DiskWatch implements ScheduleObserver {

    /** How many rounds the disks resource shows. */
    public static final int KEPT_ROUNDS = 60;

    /** The slowest response time recorded as itself; slower ones are recorded as this. */
    private static final long MAX_RECORDED_NS = TimeUnit.HOURS.toNanos(1);

    private final String disk;
    private final long originNs;
    private final long roundNs;
    private final long originEpochNs;
    private final RoundView[] kept = new RoundView[KEPT_ROUNDS];
    private final Histogram responses = new Histogram(TimeUnit.MICROSECONDS.toNanos(1), MAX_RECORDED_NS, 3);
    private long rounds;
    private long overruns;
    private long glitches;
    private long overBound;
    private volatile long boundNs;
    private volatile Meters meters;
    private volatile EventHub events;
    private volatile Consumer<RoundSummary> roundListener = round -> { };

    /** The meters a disk feeds, once metrics are bound. */
    record Meters(Timer roundDuration, Timer continuousBusy, Counter overruns, Counter deadlineMisses,
                  Timer discreteResponse, Counter overBound) {
    }

    /**
     * @param disk          the disk's name
     * @param originNs      when round 0 started, on the runtime's clock
     * @param roundNs       the round length
     * @param originEpochNs {@code originNs} as wall-clock time, nanoseconds since the epoch
     * @param boundNs       the D-response bound
     */
    public DiskWatch(String disk, long originNs, long roundNs, long originEpochNs, long boundNs) {
        this.disk = disk;
        this.originNs = originNs;
        this.roundNs = roundNs;
        this.originEpochNs = originEpochNs;
        this.boundNs = boundNs;
    }

    public String disk() {
        return disk;
    }

    /**
     * Hands every round's summary to {@code listener} from now on, on the disk's executor thread:
     * admission holds what the rounds really took against its model.
     */
    public void feedRounds(Consumer<RoundSummary> listener) {
        this.roundListener = listener;
    }

    /** Sends rounds to {@code hub} from now on. */
    public void publishTo(EventHub hub) {
        this.events = hub;
    }

    void bind(Meters bound) {
        this.meters = bound;
    }

    /** The D-response bound from the next response on. */
    public void boundNs(long bound) {
        this.boundNs = bound;
    }

    public long boundNs() {
        return boundNs;
    }

    @Override
    public void roundEnded(RoundSummary summary) {
        roundListener.accept(summary);
        long number = Math.floorDiv(summary.startNs() - originNs + roundNs / 2, roundNs);
        RoundView view = new RoundView(disk, number,
            Instant.EPOCH.plusNanos(originEpochNs + (summary.startNs() - originNs)).toString(),
            summary.lengthNs() / 1e6, summary.slackNs() / 1e6, summary.durationNs() / 1e6,
            summary.continuousOnTime() + summary.continuousLate(), summary.discreteServed(), summary.glitches(),
            summary.overrun());
        synchronized (this) {
            kept[(int) (rounds % KEPT_ROUNDS)] = view;
            rounds++;
            glitches += summary.glitches();
            if (summary.overrun()) {
                overruns++;
            }
        }
        Meters bound = meters;
        if (bound != null) {
            if (summary.continuousPlanned() > 0) {
                bound.roundDuration().record(summary.durationNs(), TimeUnit.NANOSECONDS);
            }
            bound.continuousBusy().record(summary.continuousBusyNs(), TimeUnit.NANOSECONDS);
            if (summary.overrun()) {
                bound.overruns().increment();
            }
            if (summary.glitches() > 0) {
                bound.deadlineMisses().increment(summary.glitches());
            }
        }
        EventHub hub = events;
        if (hub != null) {
            hub.publish("round", view);
        }
    }

    /** A D-request of this disk was answered {@code responseNs} after it arrived. On the executor thread. */
    public void discreteAnswered(long responseNs) {
        boolean over = responseNs > boundNs;
        synchronized (this) {
            responses.recordValue(Math.max(0, Math.min(responseNs, MAX_RECORDED_NS)));
            if (over) {
                overBound++;
            }
        }
        Meters bound = meters;
        if (bound != null) {
            bound.discreteResponse().record(responseNs, TimeUnit.NANOSECONDS);
            if (over) {
                bound.overBound().increment();
            }
        }
    }

    /** The last rounds, oldest first. */
    public synchronized List<RoundView> lastRounds() {
        List<RoundView> views = new ArrayList<>();
        long first = Math.max(0, rounds - KEPT_ROUNDS);
        for (long i = first; i < rounds; i++) {
            views.add(kept[(int) (i % KEPT_ROUNDS)]);
        }
        return views;
    }

    /** Rounds ended since the start. */
    public synchronized long rounds() {
        return rounds;
    }

    /** Rounds in which a C-request missed its deadline. */
    public synchronized long overruns() {
        return overruns;
    }

    /** C-requests that missed their deadline on this disk. */
    public synchronized long deadlineMisses() {
        return glitches;
    }

    /** A copy of the D-response times, in nanoseconds. */
    public synchronized Histogram responses() {
        return responses.copy();
    }

    /** D-requests answered after the bound in force when they were answered. */
    public synchronized long overBound() {
        return overBound;
    }
}

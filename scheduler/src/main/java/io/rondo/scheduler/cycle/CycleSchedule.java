package io.rondo.scheduler.cycle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The IO schedule of one time cycle (papers/003 Figure 1): the cycle's length and its streams,
 * each read on its own every cycle, or combined in a pair with another, the pair alternating: one
 * IO of two cycles' data for one of the two each cycle. Immutable: every change gives a new
 * schedule, and {@link #next()} gives the schedule of the cycle after.
 *
 * <p><b>How much an IO reads.</b> Each stream carries its lead: how long the data it holds at the
 * cycle's start plays. An IO may complete as late as its cycle's end, so a stream is safe as long
 * as its lead covers the cycle it reads in, and its data until its next read: a stream reads in
 * cycle {@code c} what plays from the end of {@code c} to the end of the cycle of its next read,
 * less the surplus it already holds (its lead less {@code c}'s length). That one rule gives every
 * read of the paper and every transition without a glitch:
 * <ul>
 *   <li>uncombined, steady: one cycle's data; combined: two cycles' data every other cycle;</li>
 *   <li>combining B and C (Figure 1): B reads two cycles' data in the cycle the pair forms, C reads
 *       its usual one (the transitory extra read of Section 2.1 (v) is B's extra cycle), then C
 *       reads two cycles' data in the next, and they alternate;</li>
 *   <li>splitting: the one whose turn it is reads one cycle's data; the other holds two and skips
 *       a cycle, so the memory is freed with no extra IO;</li>
 *   <li>a stream removed from a pair leaves its partner uncombined: it reads when its lead runs
 *       short, never later;</li>
 *   <li>a shorter cycle takes effect at once (every lead covers more cycles); the first shorter
 *       cycle reads less, so the leads shrink to the new cycle and the memory is freed;</li>
 *   <li>a longer cycle ({@link #doubled()}) takes effect two cycles later, when the pairs dissolve:
 *       the cycles between keep their IOs, and the pair member that reads first reads one cycle
 *       more, since its next read then comes a longer cycle later. So doubling, as the paper says,
 *       adds no IO; it adds that one cycle's transfer, which the paper's "no overhead" leaves out.</li>
 * </ul>
 * Cycle lengths and leads are whole numbers of the quantum, so every IO is whole quanta (whole
 * stored fragments in the server).
 *
 * <p><b>Memory.</b> {@link #reservedBytes()} is the most a cycle's streams can hold at once with
 * double buffering: each stream its lead plus its IO, as if every IO completed at the cycle's start.
 */
public final class CycleSchedule {

    private static final long NO_CHANGE = -1;
    private static final Comparator<ScheduledStream> BY_ID = Comparator.comparingLong(ScheduledStream::id);
    private static final Comparator<ScheduledStream> BY_RATE =
        Comparator.comparingLong(ScheduledStream::bytesPerSecond).thenComparingLong(ScheduledStream::id);

    private final long cycle;
    private final long cycleNs;
    private final long quantumNs;
    private final long changeAt;
    private final long changedCycleNs;
    /** Sorted by id. */
    private final ScheduledStream[] streams;

    private CycleSchedule(long cycle, long cycleNs, long quantumNs, long changeAt, long changedCycleNs,
                          ScheduledStream[] streams) {
        this.cycle = cycle;
        this.cycleNs = cycleNs;
        this.quantumNs = quantumNs;
        this.changeAt = changeAt;
        this.changedCycleNs = changedCycleNs;
        this.streams = streams;
    }

    /**
     * The schedule of cycle 0, with no stream.
     *
     * @throws IllegalArgumentException if the cycle is not a positive whole number of quanta
     */
    public static CycleSchedule start(long cycleNs, long quantumNs) {
        if (quantumNs <= 0) {
            throw new IllegalArgumentException("the quantum must be positive, was " + quantumNs + " ns");
        }
        CombinationSettings.requireQuanta(cycleNs, quantumNs, "a cycle");
        return new CycleSchedule(0, cycleNs, quantumNs, NO_CHANGE, 0, new ScheduledStream[0]);
    }

    /** The index of the cycle this schedule is for, counted from 0 whatever the lengths. */
    public long cycle() {
        return cycle;
    }

    /** The length of this cycle. */
    public long cycleNs() {
        return cycleNs;
    }

    /** The length of cycle {@code k}, not before this one, as far as this schedule knows. */
    public long cycleNs(long k) {
        requireNotPast(k);
        return changeAt != NO_CHANGE && k >= changeAt ? changedCycleNs : cycleNs;
    }

    /** True while a longer cycle is waiting to take effect ({@link #withCycleNs}); nothing else may change then. */
    public boolean changePending() {
        return changeAt != NO_CHANGE;
    }

    /** The streams, by id. */
    public List<ScheduledStream> streams() {
        return List.of(streams);
    }

    /** The stream of that id, if it is scheduled. */
    public Optional<ScheduledStream> stream(long id) {
        int index = indexOf(id);
        return index < 0 ? Optional.empty() : Optional.of(streams[index]);
    }

    /** The number of streams. */
    public int size() {
        return streams.length;
    }

    /** The number of streams read in pairs. */
    public int combinedCount() {
        int count = 0;
        for (ScheduledStream stream : streams) {
            count += stream.combined() ? 1 : 0;
        }
        return count;
    }

    /** The number of streams read on their own. */
    public int uncombinedCount() {
        return streams.length - combinedCount();
    }
    /**
     * The playback time this cycle's IO of a stream reads, or 0 if it is not read this cycle.
     *
     * @throws IllegalArgumentException if no such stream is scheduled
     */
    public long ioNs(long id) {
        return ioNs(require(id));
    }

    /** The bytes this cycle's IO of a stream reads, or 0 if it is not read this cycle. */
    public long ioBytes(long id) {
        ScheduledStream stream = require(id);
        return stream.bytesOf(ioNs(stream));
    }

    /** How many cycles apart a stream's reads are in steady state: 1 on its own, 2 in a pair. */
    public int periodCycles(long id) {
        return require(id).combined() ? 2 : 1;
    }

    /** True if the stream reads in cycle {@code k} (this one or a later one), if nothing changes meanwhile. */
    public boolean readsIn(long id, long k) {
        requireNotPast(k);
        ScheduledStream stream = require(id);
        long lead = stream.leadNs();
        for (long j = cycle; ; j++) {
            long io = ioNs(stream, j, lead);
            if (j == k) {
                return io > 0;
            }
            lead += io - cycleNs(j);
        }
    }

    /** This cycle's IOs, by stream id. */
    public List<Read> reads() {
        List<Read> reads = new ArrayList<>(streams.length);
        for (ScheduledStream stream : streams) {
            long io = ioNs(stream);
            if (io > 0) {
                reads.add(new Read(stream.id(), io, stream.bytesOf(io)));
            }
        }
        return reads;
    }

    /** The most this cycle's streams hold at once, double-buffered: each its lead and its IO, in bytes. */
    public long reservedBytes() {
        long bytes = 0;
        for (ScheduledStream stream : streams) {
            bytes += stream.bytesOf(stream.leadNs() + ioNs(stream));
        }
        return bytes;
    }

    /**
     * The schedule of the next cycle, once this cycle's IOs are read: leads move on, and a longer
     * cycle waiting for that cycle takes effect, dissolving the pairs.
     */
    public CycleSchedule next() {
        long nextCycle = cycle + 1;
        boolean change = nextCycle == changeAt;
        long nextLength = cycleNs(nextCycle);
        ScheduledStream[] moved = new ScheduledStream[streams.length];
        for (int i = 0; i < streams.length; i++) {
            ScheduledStream stream = streams[i];
            long lead = stream.leadNs() + ioNs(stream) - cycleNs;
            if (lead < nextLength) {
                throw new IllegalStateException("stream " + stream.id() + " would hold " + lead + " ns for a "
                    + nextLength + " ns cycle");
            }
            ScheduledStream next = stream.withLead(lead);
            moved[i] = change ? next.withPair(ScheduledStream.UNCOMBINED, 0) : next;
        }
        return new CycleSchedule(nextCycle, nextLength, quantumNs, change ? NO_CHANGE : changeAt, changedCycleNs,
            moved);
    }

    /**
     * This schedule and the next ones as far as they can differ: the two phases of the pairs, and a
     * longer cycle waiting and the cycle after it. A utilization is the worst of them.
     */
    public List<CycleSchedule> horizon() {
        List<CycleSchedule> horizon = new ArrayList<>(4);
        CycleSchedule schedule = this;
        for (int i = 0; i < 4; i++) {
            horizon.add(schedule);
            schedule = schedule.next();
        }
        return horizon;
    }

    /**
     * With a new stream, read on its own from this cycle on; it plays from the cycle's end.
     *
     * @throws IllegalArgumentException if a stream of that id is already scheduled
     */
    public CycleSchedule withStream(long id, long bytesPerSecond) {
        int index = indexOf(id);
        if (index >= 0) {
            throw new IllegalArgumentException("stream " + id + " is already scheduled");
        }
        int at = -index - 1;
        ScheduledStream[] added = new ScheduledStream[streams.length + 1];
        System.arraycopy(streams, 0, added, 0, at);
        added[at] = new ScheduledStream(id, bytesPerSecond, ScheduledStream.UNCOMBINED, 0, cycleNs);
        System.arraycopy(streams, at, added, at + 1, streams.length - at);
        return with(added);
    }

    /** Without a stream (if scheduled); its partner, if any, is read on its own from now on. */
    public CycleSchedule withoutStream(long id) {
        int index = indexOf(id);
        if (index < 0) {
            return this;
        }
        ScheduledStream removed = streams[index];
        ScheduledStream[] kept = new ScheduledStream[streams.length - 1];
        System.arraycopy(streams, 0, kept, 0, index);
        System.arraycopy(streams, index + 1, kept, index, streams.length - index - 1);
        if (removed.combined()) {
            int partner = indexIn(kept, removed.partner());
            kept[partner] = kept[partner].withPair(ScheduledStream.UNCOMBINED, 0);
        }
        return with(kept);
    }

    /**
     * Combines the two lowest-rate streams read on their own: the lower reads two cycles' data
     * now, the other its usual one now and two cycles' data next cycle; they alternate after.
     *
     * @throws IllegalStateException if fewer than two streams are uncombined, or a longer cycle is waiting
     */
    public CycleSchedule combineLowestRates() {
        List<ScheduledStream> lowest = lowestRateUncombined();
        if (lowest.size() < 2) {
            throw new IllegalStateException("combining needs two uncombined streams, there are " + uncombinedCount());
        }
        return combine(lowest.get(0).id(), lowest.get(1).id());
    }

    /**
     * Combines two streams read on their own as {@link #combineLowestRates()} does, {@code first}
     * reading two cycles' data now: for a caller whose own constraints pick the pair.
     */
    public CycleSchedule combine(long first, long second) {
        requireNoChange("combine streams");
        ScheduledStream one = require(first);
        ScheduledStream other = require(second);
        if (first == second || one.combined() || other.combined()) {
            throw new IllegalStateException("streams " + first + " and " + second + " cannot be combined: "
                + (first == second ? "they are one" : "one of them is combined already"));
        }
        int now = (int) (cycle & 1);
        ScheduledStream[] paired = streams.clone();
        paired[indexOf(first)] = one.withPair(second, now);
        paired[indexOf(second)] = other.withPair(first, 1 - now);
        return with(paired);
    }

    /**
     * The two lowest-rate uncombined streams (fewer if there are fewer), lowest first, ties by id:
     * the pair {@link #combineLowestRates()} combines, the first reading two cycles' data now.
     */
    public List<ScheduledStream> lowestRateUncombined() {
        ScheduledStream first = null;
        ScheduledStream second = null;
        for (ScheduledStream stream : streams) {
            if (stream.combined()) {
                continue;
            }
            if (first == null || BY_RATE.compare(stream, first) < 0) {
                second = first;
                first = stream;
            } else if (second == null || BY_RATE.compare(stream, second) < 0) {
                second = stream;
            }
        }
        if (first == null) {
            return List.of();
        }
        return second == null ? List.of(first) : List.of(first, second);
    }

    /** The combined stream of the highest-rate pair (the pair's lower id), or empty if none is combined. */
    public Optional<ScheduledStream> highestRatePair() {
        ScheduledStream best = null;
        long bestRate = -1;
        for (ScheduledStream stream : streams) {
            if (stream.combined() && stream.id() < stream.partner()) {
                long rate = stream.bytesPerSecond() + require(stream.partner()).bytesPerSecond();
                if (rate > bestRate) {
                    best = stream;
                    bestRate = rate;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Splits the pair of the highest rate together: both are read on their own from this cycle on.
     *
     * @throws IllegalStateException if no stream is combined
     */
    public CycleSchedule splitHighestRate() {
        ScheduledStream one = highestRatePair()
            .orElseThrow(() -> new IllegalStateException("splitting needs a combined pair, there is none"));
        ScheduledStream[] split = streams.clone();
        split[indexOf(one.id())] = one.withPair(ScheduledStream.UNCOMBINED, 0);
        int other = indexOf(one.partner());
        split[other] = split[other].withPair(ScheduledStream.UNCOMBINED, 0);
        return with(split);
    }

    /** Doubles the cycle (Figure 2): from two cycles on, every pair is read as two streams on their own. */
    public CycleSchedule doubled() {
        return withCycleNs(Math.multiplyExact(cycleNs, 2L));
    }

    /**
     * The cycle shortened by {@code unit} of its length (Figure 2's UNIT), rounded to the nearest
     * quantum and at least one quantum shorter; not below one quantum.
     */
    public long shortenedCycleNs(double unit) {
        long quanta = cycleNs / quantumNs;
        long shorter = Math.min(quanta - 1, Math.round(quanta * (1 - unit)));
        return Math.max(1, shorter) * quantumNs;
    }

    /**
     * With another cycle length. A shorter cycle takes effect in this cycle; a longer one two cycles
     * on, when the pairs dissolve (see the class comment).
     *
     * @throws IllegalArgumentException if it is not a positive whole number of quanta
     * @throws IllegalStateException    if a longer cycle is already waiting
     */
    public CycleSchedule withCycleNs(long newCycleNs) {
        CombinationSettings.requireQuanta(newCycleNs, quantumNs, "a cycle");
        requireNoChange("change the cycle");
        if (newCycleNs == cycleNs) {
            return this;
        }
        if (newCycleNs < cycleNs) {
            return new CycleSchedule(cycle, newCycleNs, quantumNs, NO_CHANGE, 0, streams);
        }
        return new CycleSchedule(cycle, cycleNs, quantumNs, cycle + 2, newCycleNs, streams);
    }

    @Override
    public String toString() {
        String pending = changePending() ? ", " + changedCycleNs / 1_000_000 + " ms from cycle " + changeAt : "";
        return "cycle " + cycle + " of " + cycleNs / 1_000_000 + " ms, " + streams.length + " streams ("
            + combinedCount() + " combined)" + pending;
    }

    private CycleSchedule with(ScheduledStream[] changed) {
        return new CycleSchedule(cycle, cycleNs, quantumNs, changeAt, changedCycleNs, changed);
    }

    private long ioNs(ScheduledStream stream) {
        return ioNs(stream, cycle, stream.leadNs());
    }

    /** The read rule of the class comment, for cycle {@code c} and the stream's lead at its start. */
    private long ioNs(ScheduledStream stream, long c, long leadNs) {
        long surplusNs = leadNs - cycleNs(c);
        long nextRead = nextPatternRead(stream, c);
        if (nextRead == c) {
            long untilNs = lengths(c + 1, nextPatternRead(stream, c + 1));
            return Math.max(0, untilNs - surplusNs);
        }
        long untilNs = lengths(c + 1, nextRead);
        return surplusNs >= untilNs ? 0 : untilNs - surplusNs;
    }

    /** The first cycle from {@code from} on in which the stream's pattern reads: alone every one, a pair in turn. */
    private long nextPatternRead(ScheduledStream stream, long from) {
        boolean reads = !stream.combined() || changeAt != NO_CHANGE && from >= changeAt || (from & 1) == stream.phase();
        return reads ? from : from + 1;
    }

    private long lengths(long from, long to) {
        long sum = 0;
        for (long k = from; k <= to; k++) {
            sum += cycleNs(k);
        }
        return sum;
    }

    private ScheduledStream require(long id) {
        int index = indexOf(id);
        if (index < 0) {
            throw new IllegalArgumentException("no stream " + id + " is scheduled");
        }
        return streams[index];
    }

    private int indexOf(long id) {
        return indexIn(streams, id);
    }

    private static int indexIn(ScheduledStream[] sorted, long id) {
        return id < 0 ? -1
            : Arrays.binarySearch(sorted, new ScheduledStream(id, 1, ScheduledStream.UNCOMBINED, 0, 0), BY_ID);
    }

    private void requireNotPast(long k) {
        if (k < cycle) {
            throw new IllegalArgumentException("cycle " + k + " is past; this schedule is for cycle " + cycle);
        }
    }

    private void requireNoChange(String what) {
        if (changePending()) {
            throw new IllegalStateException("cannot " + what + " while a " + changedCycleNs
                + " ns cycle waits for cycle " + changeAt);
        }
    }
}

package io.rondo.server.stream;

import io.rondo.scheduler.admission.AdmissionController;
import io.rondo.scheduler.admission.Cadence;
import io.rondo.scheduler.admission.StreamCadence;
import io.rondo.scheduler.cycle.CombinationSettings;
import io.rondo.scheduler.cycle.CycleSchedule;
import io.rondo.scheduler.cycle.ScheduledStream;
import io.rondo.scheduler.cycle.Step;
import io.rondo.scheduler.cycle.StreamCombination;
import io.rondo.scheduler.cycle.Utilization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stream combination and a time cycle that adapts, in the server (papers/003): the
 * {@link StreamCombination} state machine the simulator runs, judging each schedule by what
 * admission control says it takes of the disks' rounds ({@code u_t}) and of the buffer memory
 * ({@code u_m}).
 *
 * <p>Rondo's rounds stay one stored fragment long; a time cycle of {@code m} rounds gives every
 * stream a {@link Cadence} of period {@code m} (a combined stream {@code 2m}): one IO of
 * {@code m} fragments every {@code m} rounds, in its slot. The streams' slots are spread over the
 * cycle's rounds, so each round carries a share of the cycle's IOs and keeps its reserve for
 * D-requests. A change of period keeps each stream's reads where they fall (a longer period's
 * slot is one of the rounds it reads in now), so no change adds an IO; admission takes it only if
 * every disk's every round and the buffer memory still hold all the streams. Cycles are powers of
 * two of the fragment length, so that every stream's reads line up within admission's slots:
 * Figure 2's shortening by UNIT is a halving here.
 *
 * <p>Streams that read a recording at its live edge, and recordings, are left at one read a round.
 * CheckSchedule runs at every cycle's first round, on the round clock's thread, right after the
 * round's C-requests are handed out; an operator's request for a cycle ({@link #requestCycle}) is
 * judged at once.
 */
final class CycleControl {

    private static final Logger LOG = LoggerFactory.getLogger(CycleControl.class);

    /** The streams the schedule acts on. */
    interface Streams {

        /** The admitted streams that may change cadence, by stream id, with the bytes a second each plays. */
        Map<Long, Long> combinable();

        /** Gives stream {@code id} a new cadence: its buffers first; false if they cannot be had. */
        boolean recadence(long id, Cadence cadence);
    }

    private final AdmissionController admission;
    private final Streams streams;
    private final long quantumNs;
    private final StreamCombination combination;
    private final Map<Step.Operation, Long> operations = new EnumMap<>(Step.Operation.class);
    private CycleSchedule schedule;
    private long cycleStart;

    /** Stream combination on, with rounds of {@code roundNs}: cycles of 1 to 16 rounds, halved to shorten. */
    static CombinationSettings defaults(long roundNs) {
        return new CombinationSettings(true, CombinationSettings.DEFAULT_MEMORY_THRESHOLD,
            CombinationSettings.DEFAULT_CYCLE_THRESHOLD, CombinationSettings.DEFAULT_DIFFERENCE_THRESHOLD, 0.5,
            roundNs, roundNs, roundNs * CombinationSettings.DEFAULT_MAX_QUANTA);
    }

    /**
     * @param settings  the thresholds and the cycle's bounds; its quantum is the round (the fragment length),
     *                  and its UNIT one half (cycles are powers of two of rounds)
     * @param startNs   the cycle to start with, a power-of-two number of rounds
     */
    CycleControl(AdmissionController admission, Streams streams, CombinationSettings settings, long startNs) {
        if (settings.shortenUnit() != 0.5) {
            throw new IllegalArgumentException("the server's time cycles are powers of two of rounds: a shortening "
                + "halves them (UNIT 0.5), was " + settings.shortenUnit());
        }
        checkCycle(settings.maxCycleNs(), settings.quantumNs());
        this.admission = admission;
        this.streams = streams;
        this.quantumNs = settings.quantumNs();
        this.combination = new StreamCombination(settings, new Judged(), this::sameRounds);
        this.schedule = CycleSchedule.start(checkCycle(settings.checkCycle(startNs), quantumNs), quantumNs);
        admission.basePeriod(period(startNs));
        for (Step.Operation operation : Step.Operation.values()) {
            operations.put(operation, 0L);
        }
    }

    /** The round clock started round {@code round}: at a cycle's first round, CheckSchedule. */
    synchronized void roundStarted(long startedRound) {
        long cycleRounds = schedule.cycleNs() / quantumNs;
        if (startedRound - cycleStart < cycleRounds) {
            return;
        }
        cycleStart = startedRound;
        schedule = synced(next(schedule));
        apply(schedule);
        Step step = combination.check(schedule);
        if (step.changed() && apply(step.schedule())) {
            schedule = step.schedule();
            operations.merge(step.operation(), 1L, Long::sum);
            LOG.debug("round {}: {}", startedRound, step);
        }
    }

    /**
     * An operator asks for a time cycle of {@code cycleNs}: taken at once if every stream's new
     * cadence fits the disks' rounds and the buffer memory. With combination on, the cycle keeps
     * adapting from there.
     *
     * @throws IllegalArgumentException if the length is not one the cycle may have, or does not fit
     */
    synchronized void requestCycle(long cycleNs) {
        checkCycle(cycleNs, quantumNs);
        CombinationSettings settings = combination.settings();
        if (cycleNs < settings.minCycleNs() || cycleNs > settings.maxCycleNs()) {
            throw new IllegalArgumentException("a time cycle of " + cycleNs / 1_000_000 + " ms is outside "
                + settings.minCycleNs() / 1_000_000 + " to " + settings.maxCycleNs() / 1_000_000
                + " ms (scheduler.roundMs to scheduler.maxCycleMs)");
        }
        CycleSchedule asked = synced(schedule.changePending() ? CycleSchedule.start(cycleNs(), quantumNs) : schedule);
        asked = cycleNs == asked.cycleNs() ? asked : withCycle(asked, cycleNs);
        if (!apply(asked)) {
            throw new IllegalArgumentException("a time cycle of " + cycleNs / 1_000_000 + " ms does not fit: the "
                + "streams' reads at that cadence would not all fit the disks' rounds and the buffer memory");
        }
        schedule = asked;
    }

    /**
     * The pair a COMBINE takes in the server: two uncombined streams that read in the same rounds,
     * the lowest-rate such pair (by its lower rate, then the other's); none if no two read in the same
     * rounds, and then the cycle doubles. Two streams reading in the same rounds free a whole IO in
     * one of their rounds and add only a transfer to the other; two in different rounds would add a
     * transfer to two rounds, which a disk near its limit cannot take, so the paper's "two lowest
     * rates" would stall there.
     */
    private List<ScheduledStream> sameRounds(CycleSchedule candidate) {
        Map<Long, Cadence> now = cadencesNow();
        Map<Cadence, ScheduledStream[]> lowestTwo = new HashMap<>();
        Comparator<ScheduledStream> byRate = Comparator.comparingLong(ScheduledStream::bytesPerSecond)
            .thenComparingLong(ScheduledStream::id);
        for (ScheduledStream stream : candidate.streams()) {
            Cadence reads = now.get(stream.id());
            if (stream.combined() || reads == null) {
                continue;
            }
            ScheduledStream[] two = lowestTwo.computeIfAbsent(reads, c -> new ScheduledStream[2]);
            if (two[0] == null || byRate.compare(stream, two[0]) < 0) {
                two[1] = two[0];
                two[0] = stream;
            } else if (two[1] == null || byRate.compare(stream, two[1]) < 0) {
                two[1] = stream;
            }
        }
        ScheduledStream[] best = null;
        for (ScheduledStream[] two : lowestTwo.values()) {
            if (two[1] != null && (best == null || byRate.compare(two[0], best[0]) < 0
                || byRate.compare(two[0], best[0]) == 0 && byRate.compare(two[1], best[1]) < 0)) {
                best = two;
            }
        }
        return best == null ? List.of() : List.of(best[0], best[1]);
    }

    /** The time cycle now, in nanoseconds. */
    synchronized long cycleNs() {
        return schedule.changePending() ? schedule.cycleNs(schedule.cycle() + 2) : schedule.cycleNs();
    }

    /** The streams combined in pairs now. */
    synchronized int combined() {
        return schedule.combinedCount();
    }

    /** How many of each operation were made so far. */
    synchronized Map<Step.Operation, Long> operations() {
        return new EnumMap<>(operations);
    }

    private CycleSchedule withCycle(CycleSchedule from, long cycleNs) {
        CycleSchedule dissolved = from;
        while (dissolved.highestRatePair().isPresent()) {
            dissolved = dissolved.splitHighestRate();
        }
        return dissolved.withCycleNs(cycleNs);
    }

    /** The schedule of the cycle after, or, if the model cannot carry it on, the same streams afresh. */
    private CycleSchedule next(CycleSchedule current) {
        try {
            return current.next();
        } catch (IllegalStateException e) {
            return CycleSchedule.start(current.cycleNs(), quantumNs);
        }
    }

    /**
     * {@code from} with the streams that ended taken out and the new ones added, uncombined. A
     * stream whose partner ended reads on its own again once that fits ({@link #roundStarted}).
     */
    private CycleSchedule synced(CycleSchedule from) {
        Map<Long, Long> now = streams.combinable();
        CycleSchedule synced = from;
        for (ScheduledStream stream : from.streams()) {
            if (!now.containsKey(stream.id())) {
                synced = synced.withoutStream(stream.id());
            }
        }
        for (Map.Entry<Long, Long> stream : now.entrySet()) {
            if (synced.stream(stream.getKey()).isEmpty()) {
                synced = synced.withStream(stream.getKey(), Math.max(1, stream.getValue()));
            }
        }
        return synced;
    }

    /** Gives every stream its cadence under {@code next}; false, and nothing changed, if it does not fit. */
    private boolean apply(CycleSchedule next) {
        Map<Long, Cadence> changes = cadences(next);
        Map<Long, Cadence> before = new LinkedHashMap<>(cadencesNow());
        before.keySet().retainAll(changes.keySet());
        if (!admission.recadence(changes)) {
            return false;
        }
        Map<Long, Cadence> done = new LinkedHashMap<>();
        for (Map.Entry<Long, Cadence> change : changes.entrySet()) {
            if (!streams.recadence(change.getKey(), change.getValue())) {
                done.forEach((id, cadence) -> streams.recadence(id, before.get(id)));
                admission.recadence(before);
                return false;
            }
            done.put(change.getKey(), change.getValue());
        }
        admission.basePeriod(period(cycleOf(next)));
        return true;
    }

    /**
     * Each stream's cadence under {@code next}, for those it changes: period the cycle's rounds
     * (twice for a pair); a longer period's slot one of the rounds the stream reads in now,
     * alternating among the streams that read in the same rounds, so the halves of a doubled cycle
     * fall in different rounds; the second of a pair half its period from the first, so that each
     * round reads one of them; a shorter period's slot where it reads now.
     */
    private Map<Long, Cadence> cadences(CycleSchedule next) {
        int base = period(cycleOf(next));
        Map<Long, Cadence> now = cadencesNow();
        Map<Long, Cadence> changes = new LinkedHashMap<>();
        Map<Long, Integer> taken = new HashMap<>();
        for (ScheduledStream scheduled : next.streams()) {
            Cadence current = now.get(scheduled.id());
            boolean paired = scheduled.combined() && !next.changePending();
            int period = paired ? 2 * base : base;
            if (current == null || period == current.period() || period > Cadence.MAX_PERIOD) {
                continue;
            }
            Cadence partner = paired ? changes.getOrDefault(scheduled.partner(), now.get(scheduled.partner()))
                : null;
            Cadence cadence;
            if (partner != null && partner.period() == period) {
                cadence = new Cadence(period, (partner.slot() + base) % period);
            } else if (period < current.period()) {
                cadence = new Cadence(period, current.slot() % period);
            } else {
                long group = (long) current.period() << 32 | current.slot();
                int k = taken.merge(group, 1, Integer::sum) - 1;
                cadence = new Cadence(period, current.slot() + k % (period / current.period()) * current.period());
            }
            changes.put(scheduled.id(), cadence);
        }
        return changes;
    }

    /** Every admitted stream's cadence now, by stream id. */
    private Map<Long, Cadence> cadencesNow() {
        Map<Long, Cadence> now = new LinkedHashMap<>();
        for (StreamCadence stream : admission.cadences()) {
            now.put(stream.streamId(), stream.cadence());
        }
        return now;
    }

    private long cycleOf(CycleSchedule next) {
        return next.changePending() ? next.cycleNs(next.cycle() + 2) : next.cycleNs();
    }

    private int period(long cycleNs) {
        return (int) (cycleNs / quantumNs);
    }

    private static long checkCycle(long cycleNs, long quantumNs) {
        long rounds = cycleNs / quantumNs;
        if (cycleNs % quantumNs != 0 || Long.bitCount(rounds) != 1 || rounds > Cadence.MAX_PERIOD) {
            throw new IllegalArgumentException("a time cycle must be a power of two of rounds of "
                + quantumNs / 1_000_000 + " ms (the stored fragments' length), up to " + Cadence.MAX_PERIOD
                + " of them; was "
                + cycleNs / 1_000_000 + " ms");
        }
        return cycleNs;
    }

    /** u_m and u_t of a schedule, as admission control judges its streams' cadences. */
    private final class Judged implements Utilization {

        @Override
        public double memory(CycleSchedule candidate) {
            return admission.utilization(cadences(candidate)).memory();
        }

        @Override
        public double cycle(CycleSchedule candidate) {
            return admission.utilization(cadences(candidate)).cycle();
        }
    }
}

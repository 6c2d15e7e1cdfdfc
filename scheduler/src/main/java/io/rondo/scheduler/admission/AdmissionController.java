package io.rondo.scheduler.admission;

import io.rondo.scheduler.RoundSummary;
import io.rondo.scheduler.admission.AdmissionDecision.Resource;
import io.rondo.scheduler.disk.DiskModel;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;

/**
 * XTREAM's admission controller (papers/000 Section 2.3): a new stream is admitted only if, on
 * every disk it touches, the round with its fragment added still fits (papers/001 Sections 1.1
 * and 2.2: the round's C-requests must be served within the round), its buffers fit the buffer
 * memory, and what it sends fits the outgoing network.
 *
 * <p>Per disk, the round fits when its C-requests take no more than {@code T (1 - reserve)}:
 * the reserve keeps a share of every round for D-requests, so that discrete requests keep their
 * bounded response time while streams come and go. Under ADM1 and ADM3 the round takes the IO
 * times of one fragment of every admitted stream, each read from the {@link ThroughputModel}
 * curve the {@link AdmissionPolicy} names for the fragment size it names, added up; under ADM2
 * the round is charged as a whole ({@link ThroughputModel#roundNs}) from the number of streams
 * and their fragments' mean sizes, variances and peaks, summed, or at XTREAM's Adm2 charge (the
 * mean-curve IO time of every stream's peak fragment) where that is less. Per stream, double buffering
 * holds two peak fragments.
 *
 * <p>The network carries one fragment of each stream a round, so a stream is charged the
 * fragment the policy charges the disks, in bits a second: its peak fragment under ADM1 and ADM2,
 * its average one under ADM3 (where its rounds' large and small fragments even out over the
 * link as over the disks). A stream striped over disks whose average fragments differ is charged
 * the largest of those averages. With no network capacity configured, only the use is counted.
 *
 * <p>The model is checked against what the server really does: a disk whose last rounds took
 * longer than its model says has its modelled round scaled by the ratio ({@link MeasuredRounds}),
 * while the fragments already streaming leave less than half a round before their deadlines
 * no new stream is admitted ({@link DeliverySlack}), and a disk takes streams only half again as
 * many as a recent round read and fitted, past half its round by the model
 * ({@link MeasuredRounds#measuredLimit}): streams opening by the hundred a second are admitted as
 * fast as the rounds show they fit. So a stream is admitted only if the rounds it
 * joins fit as modelled and as measured, on a machine whose limit is its disks, its cores or its
 * link alike. Until the first rounds are measured, the model alone judges.
 *
 * <p>The settings may change while streams play ({@link #reconfigure}): new streams are judged
 * under the new ones at once; streams already admitted stay admitted, charged again under the
 * new policy, and the answer says how many of them the new settings would not have taken. Until
 * enough of those end, new streams are refused. Only the round length is fixed: fragments are
 * cut to it at ingest.
 *
 * <p>Thread-safe and lock-free: the settings and the admitted streams are one immutable snapshot
 * behind an atomic reference, and {@link #admit} replaces it by compare-and-set, judging the
 * stream against the very snapshot it replaces, settings included. So two concurrent admissions
 * never overbook, an admission racing a change of settings is judged under the settings it ends
 * up recorded with, and a decision never waits for another thread. Admissions are rare (one per
 * stream opened), so copying the snapshot on each is cheap beside what it saves.
 */
public final class AdmissionController {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionController.class);

    private static final long NS_PER_SECOND = 1_000_000_000L;

    private final long roundNs;
    private final NanoClock clock;
    private final Map<String, ThroughputModel> models;
    private final Map<String, MeasuredRounds> measuredRounds;
    private final DeliverySlack delivery;
    private final AtomicReference<State> state;

    /** A controller for the given disks, by name; {@code clock} tells when admitted streams end. */
    public AdmissionController(Map<String, ? extends DiskModel> disks, AdmissionConfig config, NanoClock clock) {
        if (disks.isEmpty()) {
            throw new IllegalArgumentException("admission control needs at least one disk");
        }
        Map<String, ThroughputModel> byDisk = new TreeMap<>();
        disks.forEach((name, disk) -> byDisk.put(name, ThroughputModel.of(disk)));
        this.models = Collections.unmodifiableMap(byDisk);
        Map<String, MeasuredRounds> measured = new TreeMap<>();
        byDisk.forEach((name, model) -> measured.put(name, new MeasuredRounds(model)));
        this.measuredRounds = Collections.unmodifiableMap(measured);
        this.delivery = new DeliverySlack(config.roundNs());
        this.roundNs = config.roundNs();
        this.clock = clock;
        this.state = new AtomicReference<>(new State(config, Map.of(), Map.of(), 0, 0));
    }

    /** The settings new streams are judged under. */
    public AdmissionConfig config() {
        return state.get().config;
    }

    public AdmissionPolicy policy() {
        return config().policy();
    }

    /**
     * Judges new streams under {@code next} from now on. The streams already admitted stay
     * admitted, each charged again under the new policy; if they do not all fit the new settings,
     * new streams are refused until enough of them have ended.
     *
     * @return how many streams were admitted, and how many of them would have to end for the rest
     *         to fit: taken in the order they were admitted, those the new settings would refuse
     * @throws IllegalArgumentException if {@code next} has another round length
     */
    public Reconfiguration reconfigure(AdmissionConfig next) {
        if (next.roundNs() != roundNs) {
            throw new IllegalArgumentException("the round length cannot change while Rondo runs: fragments are cut "
                + "to the round at ingest, so it stays " + roundNs / 1e6 + " ms (asked for " + next.roundNs() / 1e6
                + " ms)");
        }
        while (true) {
            State current = state.get();
            Map<Long, Admitted> recharged = new LinkedHashMap<>();
            Map<String, DiskLoad> fittingByDisk = new HashMap<>();
            long fittingBufferBytes = 0;
            long fittingBitsPerSecond = 0;
            int exceeding = 0;
            for (Admitted admitted : current.streams.values()) {
                Charge charge = charge(next.policy(), admitted.demand);
                recharged.put(charge.streamId,
                    new Admitted(admitted.demand, charge, admitted.endNs, admitted.endKnown));
                if (fits(next, fittingByDisk, fittingBufferBytes, fittingBitsPerSecond, charge)) {
                    charge.loadByDisk.forEach((disk, load) -> fittingByDisk.merge(disk, load, DiskLoad::plus));
                    fittingBufferBytes += charge.bufferBytes;
                    fittingBitsPerSecond += charge.networkBitsPerSecond;
                } else {
                    exceeding++;
                }
            }
            if (state.compareAndSet(current, State.of(next, recharged))) {
                LOG.info("admission now judges under {}; {} stream(s) admitted, {} of them past what it admits",
                    next, recharged.size(), exceeding);
                return new Reconfiguration(recharged.size(), exceeding);
            }
        }
    }

    /**
     * A round of {@code disk} ended: what it really took is held against its model from now on
     * ({@link MeasuredRounds}). On the disk's executor thread; a few field writes.
     */
    public void roundEnded(String disk, RoundSummary round) {
        measured(disk).roundEnded(round, state.get().config.continuousNs());
    }

    /**
     * A stream's fragment left {@code slackNs} before its deadline (negative: after it), at
     * {@code nowNs} on this controller's clock ({@link DeliverySlack}). Any thread.
     */
    public void delivered(long slackNs, long nowNs) {
        delivery.delivered(slackNs, nowNs);
    }

    /** By how much {@code disk}'s last rounds took longer than its model says: at least 1. */
    public double inflation(String disk) {
        return measured(disk).inflation();
    }

    /** The least slack the streams' fragments left with lately; {@link Long#MAX_VALUE} if none left. */
    public long leastDeliverySlackNs() {
        return delivery.leastSlackNs(clock.nanoTime());
    }

    private MeasuredRounds measured(String disk) {
        MeasuredRounds rounds = measuredRounds.get(disk);
        if (rounds == null) {
            throw new IllegalArgumentException("no disk named '" + disk + "'; the disks are " + models.keySet());
        }
        return rounds;
    }

    /** The curves a disk is judged by. */
    public ThroughputModel throughputModel(String disk) {
        return model(disk);
    }

    /**
     * Whether {@code demand} would be admitted now, reserving nothing: a later {@link #admit} may
     * answer otherwise if other streams came or went in between.
     */
    public AdmissionDecision decide(StreamDemand demand) {
        State current = state.get();
        Charge charge = charge(current.config.policy(), demand);
        checkNew(current, demand);
        return judge(current, charge, clock.nanoTime());
    }

    /** Decides, and if the stream is accepted reserves its share of every disk it touches and its buffers. */
    public AdmissionDecision admit(StreamDemand demand) {
        while (true) {
            long nowNs = clock.nanoTime();
            State current = state.get();
            checkNew(current, demand);
            Charge charge = charge(current.config.policy(), demand);
            AdmissionDecision decision = judge(current, charge, nowNs);
            if (!decision.accepted()) {
                return decision;
            }
            long endNs = demand.knownDuration().map(d -> nowNs + d.toNanos()).orElse(0L);
            Admitted admitted = new Admitted(demand, charge, endNs, demand.duration() != null);
            if (state.compareAndSet(current, current.with(admitted))) {
                return decision;
            }
        }
    }

    /** Frees what an admitted stream held; false if no stream of that id was admitted. */
    public boolean release(long streamId) {
        while (true) {
            State current = state.get();
            if (!current.streams.containsKey(streamId)) {
                return false;
            }
            if (state.compareAndSet(current, current.without(streamId))) {
                return true;
            }
        }
    }

    /**
     * How many streams like {@code demand} the disks it touches take under {@code policy} and the
     * settings in force, on their own (nothing else admitted): the fewest any of its disks'
     * rounds, the buffer memory or the network holds; {@link Integer#MAX_VALUE} for a stream that
     * reads nothing.
     */
    public int capacity(AdmissionPolicy policy, StreamDemand demand) {
        AdmissionConfig config = config();
        Charge charge = charge(policy, demand);
        long streams = Integer.MAX_VALUE;
        for (Map.Entry<String, DiskLoad> disk : charge.loadByDisk.entrySet()) {
            streams = Math.min(streams, capacity(policy, disk.getKey(), disk.getValue(), config.continuousNs()));
        }
        if (charge.bufferBytes > 0) {
            streams = Math.min(streams, config.bufferCeilingBytes() / charge.bufferBytes);
        }
        if (config.networkLimited() && charge.networkBitsPerSecond > 0) {
            streams = Math.min(streams, config.networkBitsPerSecond() / charge.networkBitsPerSecond);
        }
        return (int) streams;
    }

    /** How many streams of {@code load} alone fit {@code availableNs} of {@code disk}'s round. */
    private long capacity(AdmissionPolicy policy, String disk, DiskLoad load, long availableNs) {
        if (load.ioNs() == 0) {
            return Integer.MAX_VALUE;
        }
        if (!policy.chargesWholeRounds()) {
            return availableNs / load.ioNs();
        }
        long streams = 0;
        DiskLoad round = DiskLoad.NONE;
        while (streams < Integer.MAX_VALUE) {
            round = round.plus(load);
            if (roundNs(policy, disk, round) > availableNs) {
                break;
            }
            streams++;
        }
        return streams;
    }

    /**
     * The part of {@code disk}'s round {@code load} takes under {@code policy}: for ADM2 the
     * lesser of the whole round's charge and XTREAM's (each stream's peak fragment on the mean
     * curve), so that Rondo's ADM2 admits whatever XTREAM's would.
     */
    private long roundNs(AdmissionPolicy policy, String disk, DiskLoad load) {
        return policy.chargesWholeRounds()
            ? Math.min(load.ioNs(),
                model(disk).roundNs(load.streams(), load.bytes(), load.varianceBytes2(), load.peakBytes()))
            : load.ioNs();
    }

    /** True if a stream of this id is admitted. */
    public boolean isAdmitted(long streamId) {
        return state.get().streams.containsKey(streamId);
    }

    /** The number of streams admitted. */
    public int admittedStreams() {
        return state.get().streams.size();
    }

    /** The number of admitted streams that touch {@code disk}. */
    public int admittedStreams(String disk) {
        model(disk);
        int count = 0;
        for (Admitted admitted : state.get().streams.values()) {
            if (admitted.charge.loadByDisk.containsKey(disk)) {
                count++;
            }
        }
        return count;
    }

    /** The part of {@code disk}'s round its admitted streams take, in nanoseconds. */
    public long committedNs(String disk) {
        model(disk);
        State current = state.get();
        return roundNs(current.config.policy(), disk, current.loadByDisk.getOrDefault(disk, DiskLoad.NONE));
    }

    /** The buffer memory the admitted streams hold. */
    public long bufferBytesInUse() {
        return state.get().bufferBytes;
    }

    /** The outgoing network capacity the admitted streams are charged, in bits a second. */
    public long networkBitsPerSecondInUse() {
        return state.get().networkBitsPerSecond;
    }

    private Charge charge(AdmissionPolicy policy, StreamDemand demand) {
        Map<String, DiskLoad> loadByDisk = new TreeMap<>();
        long sentBytesPerRound = 0;
        for (Map.Entry<String, DiskDemand> share : demand.disks().entrySet()) {
            DiskDemand need = share.getValue();
            long charged = policy.chargedBytes(need);
            long ioNs = model(share.getKey()).ioNs(policy, charged);
            loadByDisk.put(share.getKey(), new DiskLoad(1, ioNs, need.averageBytesPerRound(),
                need.sdBytesPerRound() * need.sdBytesPerRound(), need.peakBytesPerRound()));
            sentBytesPerRound = Math.max(sentBytesPerRound, charged);
        }
        long networkBitsPerSecond = (long) Math.ceil(sentBytesPerRound * 8.0 * NS_PER_SECOND / roundNs);
        return new Charge(demand.streamId(), Collections.unmodifiableMap(loadByDisk), 2 * demand.peakFragmentBytes(),
            networkBitsPerSecond);
    }

    private ThroughputModel model(String disk) {
        ThroughputModel model = models.get(disk);
        if (model == null) {
            throw new IllegalArgumentException("no disk named '" + disk + "'; the disks are " + models.keySet());
        }
        return model;
    }

    private static void checkNew(State current, StreamDemand demand) {
        if (current.streams.containsKey(demand.streamId())) {
            throw new IllegalStateException("stream " + demand.streamId() + " is already admitted");
        }
    }

    private AdmissionDecision judge(State current, Charge charge, long nowNs) {
        AdmissionConfig config = current.config;
        long availableNs = config.continuousNs();
        AdmissionPolicy policy = config.policy();
        for (Map.Entry<String, DiskLoad> disk : charge.loadByDisk.entrySet()) {
            DiskLoad with = current.loadByDisk.getOrDefault(disk.getKey(), DiskLoad.NONE).plus(disk.getValue());
            MeasuredRounds rounds = measured(disk.getKey());
            double inflation = rounds.inflation();
            long modelledNs = roundNs(policy, disk.getKey(), with);
            long neededNs = (long) Math.ceil(modelledNs * inflation);
            if (neededNs > availableNs) {
                long aloneNs = roundNs(policy, disk.getKey(), disk.getValue());
                long retry = aloneNs > availableNs ? 0 : retryAfterSeconds(current, nowNs,
                    a -> a.charge.loadByDisk.getOrDefault(disk.getKey(), DiskLoad.NONE).ioNs(),
                    modelledNs - (long) (availableNs / inflation));
                return new AdmissionDecision.Reject(charge.streamId, Resource.DISK_TIME, disk.getKey(), neededNs,
                    availableNs, retry, inflation);
            }
            if (rounds.measuring()) {
                int limit = rounds.measuredLimit(disk.getValue().ioNs(), availableNs);
                if (with.streams() > limit) {
                    return new AdmissionDecision.Reject(charge.streamId, Resource.MEASURING, disk.getKey(),
                        with.streams(), limit, 1);
                }
            }
        }
        long freeBytes = config.bufferCeilingBytes() - current.bufferBytes;
        if (charge.bufferBytes > freeBytes) {
            long retry = charge.bufferBytes > config.bufferCeilingBytes() ? 0 : retryAfterSeconds(current, nowNs,
                a -> a.charge.bufferBytes, charge.bufferBytes - freeBytes);
            return new AdmissionDecision.Reject(charge.streamId, Resource.BUFFER_MEMORY, null, charge.bufferBytes,
                freeBytes, retry);
        }
        long capacityBits = config.networkBitsPerSecond();
        if (config.networkLimited() && current.networkBitsPerSecond + charge.networkBitsPerSecond > capacityBits) {
            long neededBits = current.networkBitsPerSecond + charge.networkBitsPerSecond;
            long retry = charge.networkBitsPerSecond > capacityBits ? 0 : retryAfterSeconds(current, nowNs,
                a -> a.charge.networkBitsPerSecond, neededBits - capacityBits);
            return new AdmissionDecision.Reject(charge.streamId, Resource.NETWORK, null, neededBits, capacityBits,
                retry);
        }
        long leastSlackNs = delivery.leastSlackNs(nowNs);
        if (leastSlackNs < delivery.minSlackNs() && !charge.loadByDisk.isEmpty()) {
            long retry = Math.max(1, DeliverySlack.WINDOWS * roundNs / NS_PER_SECOND);
            return new AdmissionDecision.Reject(charge.streamId, Resource.DELIVERY, null, delivery.minSlackNs(),
                leastSlackNs, retry);
        }
        return new AdmissionDecision.Accept(charge.streamId, config.policy());
    }

    /** Whether {@code charge} fits under {@code config} beside streams that take what the rest says. */
    private boolean fits(AdmissionConfig config, Map<String, DiskLoad> loadByDisk, long bufferBytes,
                         long networkBitsPerSecond, Charge charge) {
        for (Map.Entry<String, DiskLoad> disk : charge.loadByDisk.entrySet()) {
            DiskLoad with = loadByDisk.getOrDefault(disk.getKey(), DiskLoad.NONE).plus(disk.getValue());
            if (roundNs(config.policy(), disk.getKey(), with) > config.continuousNs()) {
                return false;
            }
        }
        return bufferBytes + charge.bufferBytes <= config.bufferCeilingBytes()
            && (!config.networkLimited()
                || networkBitsPerSecond + charge.networkBitsPerSecond <= config.networkBitsPerSecond());
    }

    /**
     * The seconds until enough admitted streams have ended, in the order they end, to free
     * {@code excess} of a resource: at least 1. If that waits on a stream whose end is unknown,
     * the configured default.
     */
    private long retryAfterSeconds(State current, long nowNs, ToLongFunction<Admitted> share,
                                   long excess) {
        List<Admitted> holders = new ArrayList<>();
        for (Admitted admitted : current.streams.values()) {
            if (share.applyAsLong(admitted) > 0) {
                holders.add(admitted);
            }
        }
        holders.sort(Comparator.comparing((Admitted a) -> !a.endKnown).thenComparingLong(a -> a.endNs - nowNs));
        long freed = 0;
        for (Admitted admitted : holders) {
            if (!admitted.endKnown) {
                break;
            }
            freed += share.applyAsLong(admitted);
            if (freed >= excess) {
                long remainingNs = Math.max(0, admitted.endNs - nowNs);
                return Math.max(1, (remainingNs + NS_PER_SECOND - 1) / NS_PER_SECOND);
            }
        }
        return current.config.defaultRetryAfterSeconds();
    }

    /** What a stream is charged: its load on each disk it touches, buffer memory, and network. */
    private record Charge(long streamId, Map<String, DiskLoad> loadByDisk, long bufferBytes,
                          long networkBitsPerSecond) {
    }

    /**
     * What streams ask of one disk's round, summed: how many they are, their IO times on the
     * policy's curve for the fragment it charges (for ADM1 and ADM3 the round's time; for ADM2
     * XTREAM's charge, and the share by which a retry-after is told), and their fragments' mean
     * bytes, variances and peaks.
     */
    private record DiskLoad(int streams, long ioNs, double bytes, double varianceBytes2, double peakBytes) {

        static final DiskLoad NONE = new DiskLoad(0, 0, 0, 0, 0);

        DiskLoad plus(DiskLoad other) {
            return new DiskLoad(streams + other.streams, ioNs + other.ioNs, bytes + other.bytes,
                varianceBytes2 + other.varianceBytes2, peakBytes + other.peakBytes);
        }

        DiskLoad minus(DiskLoad other) {
            return new DiskLoad(streams - other.streams, ioNs - other.ioNs, bytes - other.bytes,
                Math.max(0, varianceBytes2 - other.varianceBytes2), peakBytes - other.peakBytes);
        }
    }

    /**
     * An admitted stream: what it asked for (to charge it again when the policy changes), its
     * charge under the policy in force and, if known, when it ends.
     */
    private record Admitted(StreamDemand demand, Charge charge, long endNs, boolean endKnown) {
    }

    /**
     * The settings and the admitted streams, in the order they were admitted, with what they take
     * together; immutable: replaced whole on every change.
     */
    private static final class State {

        final AdmissionConfig config;
        final Map<Long, Admitted> streams;
        final Map<String, DiskLoad> loadByDisk;
        final long bufferBytes;
        final long networkBitsPerSecond;

        State(AdmissionConfig config, Map<Long, Admitted> streams, Map<String, DiskLoad> loadByDisk,
              long bufferBytes, long networkBitsPerSecond) {
            this.config = config;
            this.streams = streams;
            this.loadByDisk = loadByDisk;
            this.bufferBytes = bufferBytes;
            this.networkBitsPerSecond = networkBitsPerSecond;
        }

        /** The streams, in admission order, under {@code config}: their sums counted in one pass. */
        static State of(AdmissionConfig config, Map<Long, Admitted> streams) {
            Map<String, DiskLoad> used = new HashMap<>();
            long buffer = 0;
            long network = 0;
            for (Admitted admitted : streams.values()) {
                admitted.charge.loadByDisk.forEach((disk, load) -> used.merge(disk, load, DiskLoad::plus));
                buffer += admitted.charge.bufferBytes;
                network += admitted.charge.networkBitsPerSecond;
            }
            return new State(config, streams, used, buffer, network);
        }

        State with(Admitted admitted) {
            Map<Long, Admitted> newStreams = new LinkedHashMap<>(streams);
            newStreams.put(admitted.demand.streamId(), admitted);
            Map<String, DiskLoad> newUsed = new HashMap<>(loadByDisk);
            admitted.charge.loadByDisk.forEach((disk, load) -> newUsed.merge(disk, load, DiskLoad::plus));
            return new State(config, newStreams, newUsed, bufferBytes + admitted.charge.bufferBytes,
                networkBitsPerSecond + admitted.charge.networkBitsPerSecond);
        }

        State without(long streamId) {
            Map<Long, Admitted> newStreams = new LinkedHashMap<>(streams);
            Admitted admitted = newStreams.remove(streamId);
            Map<String, DiskLoad> newUsed = new HashMap<>(loadByDisk);
            admitted.charge.loadByDisk.forEach((disk, load) -> newUsed.merge(disk, load, DiskLoad::minus));
            return new State(config, newStreams, newUsed, bufferBytes - admitted.charge.bufferBytes,
                networkBitsPerSecond - admitted.charge.networkBitsPerSecond);
        }
    }
}

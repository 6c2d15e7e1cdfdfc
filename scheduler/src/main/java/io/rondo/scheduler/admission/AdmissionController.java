package io.rondo.scheduler.admission;

import io.rondo.scheduler.RoundSummary;
import io.rondo.scheduler.admission.AdmissionDecision.Resource;
import io.rondo.scheduler.disk.DiskModel;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

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
 * mean-curve IO time of every stream's peak fragment) where that is less. Buffer memory is
 * charged by what the client can do ({@link BufferMode}): two peak fragments of its own for a
 * double-buffered stream; for a client that buffers, or buffers and receives fast, one or none of
 * its own and its part in a shared account, sized to the most its streams can hold at once
 * ({@link SharedBuffers}), so the ceiling admits more of them.
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
 *
 * <p>What a stream and a round are charged is {@link Charges}' arithmetic; the snapshot is an
 * {@link AdmissionState}; this class judges against it and replaces it.
 */
public final class AdmissionController {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionController.class);

    private final long roundNs;
    private final NanoClock clock;
    private final Charges charges;
    private final Map<String, MeasuredRounds> measuredRounds;
    private final DeliverySlack delivery;
    private final AtomicReference<AdmissionState> state;
    /** The period, in rounds, new streams read at: the time cycle papers/003 adapts. */
    private volatile int basePeriod = 1;

    /** A controller for the given disks, by name; {@code clock} tells when admitted streams end. */
    public AdmissionController(Map<String, ? extends DiskModel> disks, AdmissionConfig config, NanoClock clock) {
        if (disks.isEmpty()) {
            throw new IllegalArgumentException("admission control needs at least one disk");
        }
        this.charges = new Charges(disks, config.roundNs());
        Map<String, MeasuredRounds> measured = new TreeMap<>();
        charges.models().forEach((name, model) -> measured.put(name, new MeasuredRounds(model)));
        this.measuredRounds = Collections.unmodifiableMap(measured);
        this.delivery = new DeliverySlack(config.roundNs());
        this.roundNs = config.roundNs();
        this.clock = clock;
        this.state = new AtomicReference<>(AdmissionState.empty(config));
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
            AdmissionState current = state.get();
            Map<Long, AdmittedStream> recharged = new LinkedHashMap<>();
            Map<String, SlotLoads> fittingByDisk = new HashMap<>();
            List<Charge> fitting = new ArrayList<>();
            long fittingOwnBytes = 0;
            long fittingBitsPerSecond = 0;
            int exceeding = 0;
            for (AdmittedStream admitted : current.streams.values()) {
                Charge charge = charges.charge(next.policy(), admitted.demand(), admitted.charge().cadence());
                recharged.put(charge.streamId(),
                    new AdmittedStream(admitted.demand(), charge, admitted.endNs(), admitted.endKnown()));
                fitting.add(charge);
                long bufferBytesWith = fittingOwnBytes + charge.bufferBytes() + SharedBuffers.totalBytes(fitting);
                if (charges.fits(next, fittingByDisk, bufferBytesWith, fittingBitsPerSecond, charge)) {
                    AdmissionState.add(fittingByDisk, charge);
                    fittingOwnBytes += charge.bufferBytes();
                    fittingBitsPerSecond += charge.networkBitsPerSecond();
                } else {
                    fitting.remove(fitting.size() - 1);
                    exceeding++;
                }
            }
            if (state.compareAndSet(current, AdmissionState.of(next, recharged))) {
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
            throw new IllegalArgumentException("no disk named '" + disk + "'; the disks are "
                + measuredRounds.keySet());
        }
        return rounds;
    }

    /** The curves a disk is judged by. */
    public ThroughputModel throughputModel(String disk) {
        return charges.model(disk);
    }

    /**
     * Whether {@code demand} would be admitted now, reserving nothing: a later {@link #admit} may
     * answer otherwise if other streams came or went in between.
     */
    public AdmissionDecision decide(StreamDemand demand) {
        AdmissionState current = state.get();
        checkNew(current, demand);
        return judge(current, charges.chargeNew(current, demand, basePeriod), clock.nanoTime());
    }

    /** Decides, and if the stream is accepted reserves its share of every disk it touches and its buffers. */
    public AdmissionDecision admit(StreamDemand demand) {
        while (true) {
            long nowNs = clock.nanoTime();
            AdmissionState current = state.get();
            checkNew(current, demand);
            Charge charge = charges.chargeNew(current, demand, basePeriod);
            AdmissionDecision decision = judge(current, charge, nowNs);
            if (!decision.accepted()) {
                return decision;
            }
            long endNs = demand.knownDuration().map(d -> nowNs + d.toNanos()).orElse(0L);
            AdmittedStream admitted = new AdmittedStream(demand, charge, endNs, demand.duration() != null);
            if (state.compareAndSet(current, current.with(admitted))) {
                return decision;
            }
        }
    }

    /** Frees what an admitted stream held; false if no stream of that id was admitted. */
    public boolean release(long streamId) {
        while (true) {
            AdmissionState current = state.get();
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
        Charge charge = charges.charge(policy, demand);
        long streams = Integer.MAX_VALUE;
        for (Map.Entry<String, DiskLoad> disk : charge.loadByDisk().entrySet()) {
            streams = Math.min(streams,
                charges.capacity(policy, disk.getKey(), disk.getValue(), config.continuousNs()));
        }
        streams = Math.min(streams, SharedBuffers.capacity(charge, config.bufferCeilingBytes()));
        if (config.networkLimited() && charge.networkBitsPerSecond() > 0) {
            streams = Math.min(streams, config.networkBitsPerSecond() / charge.networkBitsPerSecond());
        }
        return (int) streams;
    }

    /** The period, in rounds, new streams read at. */
    public int basePeriod() {
        return basePeriod;
    }

    /** New streams read every {@code period} rounds from now on (a power of two: see {@link Cadence}). */
    public void basePeriod(int period) {
        this.basePeriod = new Cadence(period, 0).period();
    }

    /** Every admitted stream: how often it reads, and what one fragment of it takes. */
    public List<StreamCadence> cadences() {
        List<StreamCadence> all = new ArrayList<>();
        for (AdmittedStream admitted : state.get().streams.values()) {
            all.add(new StreamCadence(admitted.demand(), admitted.charge().cadence()));
        }
        return all;
    }

    /**
     * What the admitted streams would take with the cadences {@code changes} gives some of them:
     * on the worst disk, the largest part of a round's time for C-requests, and the share of the
     * buffer memory (papers/003 Section 2.2: u_t and u_m). Reserves nothing.
     */
    public Utilization utilization(Map<Long, Cadence> changes) {
        return utilization(recharged(state.get(), changes));
    }

    /**
     * Gives the admitted streams in {@code changes} their new cadences, all at once, if every disk's
     * rounds and the buffer memory still hold them all; else changes nothing and answers false. A
     * stream that ended meanwhile is passed over.
     */
    public boolean recadence(Map<Long, Cadence> changes) {
        while (true) {
            AdmissionState current = state.get();
            AdmissionState next = recharged(current, changes);
            Utilization use = utilization(next);
            if (use.cycle() > 1 || use.memory() > 1) {
                return false;
            }
            if (state.compareAndSet(current, next)) {
                return true;
            }
        }
    }

    /** u_t on the worst disk, as modelled and scaled by its measured rounds, and u_m. */
    private Utilization utilization(AdmissionState next) {
        long worstNs = 0;
        for (Map.Entry<String, SlotLoads> disk : next.loadByDisk.entrySet()) {
            double inflation = measured(disk.getKey()).inflation();
            worstNs = Math.max(worstNs, disk.getValue().worst(load ->
                (long) Math.ceil(charges.roundNs(next.config.policy(), disk.getKey(), load) * inflation)));
        }
        return new Utilization((double) worstNs / next.config.continuousNs(),
            (double) next.bufferBytes / Math.max(1, next.config.bufferCeilingBytes()));
    }

    private AdmissionState recharged(AdmissionState current, Map<Long, Cadence> changes) {
        Map<Long, AdmittedStream> streams = new LinkedHashMap<>(current.streams);
        changes.forEach((id, cadence) -> streams.computeIfPresent(id, (key, admitted) ->
            new AdmittedStream(admitted.demand(), charges.charge(current.config.policy(), admitted.demand(), cadence),
                admitted.endNs(), admitted.endKnown())));
        return AdmissionState.of(current.config, streams);
    }

    /**
     * The size of each shared buffer account under the streams admitted now, by account
     * ({@link BufferMode#sharedAccount()}): what the buffer pool gives its shared accounts.
     */
    public Map<String, Long> sharedBufferBytes() {
        return state.get().sharedBufferBytes();
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
        charges.model(disk);
        int count = 0;
        for (AdmittedStream admitted : state.get().streams.values()) {
            if (admitted.charge().loadByDisk().containsKey(disk)) {
                count++;
            }
        }
        return count;
    }

    /** The part of {@code disk}'s round its admitted streams take, in nanoseconds. */
    public long committedNs(String disk) {
        charges.model(disk);
        AdmissionState current = state.get();
        return current.loadByDisk.getOrDefault(disk, SlotLoads.NONE)
            .worst(load -> charges.roundNs(current.config.policy(), disk, load));
    }

    /** The buffer memory the admitted streams hold. */
    public long bufferBytesInUse() {
        return state.get().bufferBytes;
    }

    /** The outgoing network capacity the admitted streams are charged, in bits a second. */
    public long networkBitsPerSecondInUse() {
        return state.get().networkBitsPerSecond;
    }

    private static void checkNew(AdmissionState current, StreamDemand demand) {
        if (current.streams.containsKey(demand.streamId())) {
            throw new IllegalStateException("stream " + demand.streamId() + " is already admitted");
        }
    }

    private AdmissionDecision judge(AdmissionState current, Charge charge, long nowNs) {
        AdmissionConfig config = current.config;
        long availableNs = config.continuousNs();
        AdmissionPolicy policy = config.policy();
        for (Map.Entry<String, DiskLoad> disk : charge.loadByDisk().entrySet()) {
            SlotLoads slots = current.loadByDisk.getOrDefault(disk.getKey(), SlotLoads.NONE);
            MeasuredRounds rounds = measured(disk.getKey());
            double inflation = rounds.inflation();
            long modelledNs = slots.worstWith(disk.getValue(), charge.cadence(),
                load -> charges.roundNs(policy, disk.getKey(), load));
            long neededNs = (long) Math.ceil(modelledNs * inflation);
            if (neededNs > availableNs) {
                long aloneNs = charges.roundNs(policy, disk.getKey(), disk.getValue());
                long retry = aloneNs > availableNs ? 0 : current.retryAfterSeconds(nowNs,
                    a -> a.charge().loadByDisk().getOrDefault(disk.getKey(), DiskLoad.NONE).ioNs(),
                    modelledNs - (long) (availableNs / inflation));
                return new AdmissionDecision.Reject(charge.streamId(), Resource.DISK_TIME, disk.getKey(), neededNs,
                    availableNs, retry, inflation);
            }
            if (rounds.measuring()) {
                int limit = rounds.measuredLimit(disk.getValue().ioNs(), availableNs);
                int streams = slots.mostStreams() + 1;
                if (streams > limit) {
                    return new AdmissionDecision.Reject(charge.streamId(), Resource.MEASURING, disk.getKey(),
                        streams, limit, 1);
                }
            }
        }
        long freeBytes = config.bufferCeilingBytes() - current.bufferBytes;
        long neededBytes = current.bufferBytesWith(charge) - current.bufferBytes;
        if (neededBytes > freeBytes) {
            long retry = charge.mostBufferBytes() > config.bufferCeilingBytes() ? 0 : current.retryAfterSeconds(nowNs,
                a -> a.charge().mostBufferBytes(), neededBytes - freeBytes);
            return new AdmissionDecision.Reject(charge.streamId(), Resource.BUFFER_MEMORY, null, neededBytes,
                freeBytes, retry);
        }
        long capacityBits = config.networkBitsPerSecond();
        if (config.networkLimited() && current.networkBitsPerSecond + charge.networkBitsPerSecond() > capacityBits) {
            long neededBits = current.networkBitsPerSecond + charge.networkBitsPerSecond();
            long retry = charge.networkBitsPerSecond() > capacityBits ? 0 : current.retryAfterSeconds(nowNs,
                a -> a.charge().networkBitsPerSecond(), neededBits - capacityBits);
            return new AdmissionDecision.Reject(charge.streamId(), Resource.NETWORK, null, neededBits, capacityBits,
                retry);
        }
        long leastSlackNs = delivery.leastSlackNs(nowNs);
        if (leastSlackNs < delivery.minSlackNs() && !charge.loadByDisk().isEmpty()) {
            long retry = Math.max(1, DeliverySlack.WINDOWS * roundNs / Charges.NS_PER_SECOND);
            return new AdmissionDecision.Reject(charge.streamId(), Resource.DELIVERY, null, delivery.minSlackNs(),
                leastSlackNs, retry);
        }
        return new AdmissionDecision.Accept(charge.streamId(), config.policy(), charge.cadence());
    }
}

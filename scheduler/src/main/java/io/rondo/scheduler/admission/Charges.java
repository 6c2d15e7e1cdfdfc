package io.rondo.scheduler.admission;

import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.disk.DiskModel;
import io.rondo.scheduler.exec.BufferPool;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Admission's arithmetic (papers/000 Section 2.3): what a stream is charged under a policy, on
 * each disk it touches from that disk's {@link ThroughputModel} (a read on its read curves, a
 * recording's write on its write curves: reads and writes in the same round's budget), in buffer
 * memory (by its {@link BufferMode}: two peak fragments of its own when double-buffered; fewer,
 * or none, and a part in a shared account, {@link SharedBuffers}, when its client buffers and
 * receives fast) and on the network (the fragment the disks are charged, each
 * round); and what part of a disk's round a load takes. It holds no admitted stream: the
 * controller adds the charges up.
 */
final class Charges {

    static final long NS_PER_SECOND = 1_000_000_000L;

    private final long roundNs;
    private final Map<String, ThroughputModel> models;
    private final Map<String, ThroughputModel> writeModels;

    /** Charges for the given disks, by name, with rounds of {@code roundNs}. */
    Charges(Map<String, ? extends DiskModel> disks, long roundNs) {
        Map<String, ThroughputModel> byDisk = new TreeMap<>();
        Map<String, ThroughputModel> writesByDisk = new TreeMap<>();
        disks.forEach((name, disk) -> {
            byDisk.put(name, ThroughputModel.of(disk));
            writesByDisk.put(name, ThroughputModel.ofWrites(disk));
        });
        this.models = Collections.unmodifiableMap(byDisk);
        this.writeModels = Collections.unmodifiableMap(writesByDisk);
        this.roundNs = roundNs;
    }

    /** The curves of every disk, by name. */
    Map<String, ThroughputModel> models() {
        return models;
    }

    /** The curves {@code disk} is judged by. */
    ThroughputModel model(String disk) {
        ThroughputModel model = models.get(disk);
        if (model == null) {
            throw new IllegalArgumentException("no disk named '" + disk + "'; the disks are " + models.keySet());
        }
        return model;
    }

    /** What {@code demand} is charged under {@code policy} reading every round. */
    Charge charge(AdmissionPolicy policy, StreamDemand demand) {
        return charge(policy, demand, Cadence.EVERY_ROUND);
    }

    /**
     * What {@code demand} is charged under {@code policy} at {@code cadence}: a write on the write
     * curve, a read on the read curve, each read {@code cadence.period()} fragments in one IO in
     * the rounds the cadence reads in; its buffers as a stream of fragments that many times as
     * large (papers/003 Equation 2: a combined stream holds two cycles' data); its network share
     * the same bytes a second whatever the cadence.
     */
    Charge charge(AdmissionPolicy policy, StreamDemand fragmentDemand, Cadence cadence) {
        StreamDemand demand = fragmentDemand.perRead(cadence.period());
        Map<String, DiskLoad> loadByDisk = new TreeMap<>();
        long sentBytesPerRound = 0;
        for (Map.Entry<String, DiskDemand> share : demand.disks().entrySet()) {
            DiskDemand need = share.getValue();
            long charged = policy.chargedBytes(need);
            long readNs = model(share.getKey()).ioNs(policy, charged);
            long ioNs = need.write() ? writeModels.get(share.getKey()).ioNs(policy, charged) : readNs;
            loadByDisk.put(share.getKey(), new DiskLoad(1, ioNs, need.averageBytesPerRound(),
                need.sdBytesPerRound() * need.sdBytesPerRound(), need.peakBytesPerRound(), Math.max(0, ioNs - readNs)));
            sentBytesPerRound = Math.max(sentBytesPerRound, charged);
        }
        long networkBitsPerSecond = (long) Math.ceil(sentBytesPerRound * 8.0 * NS_PER_SECOND
            / ((double) roundNs * cadence.period()));
        ClientBuffers buffers = demand.buffers();
        BufferMode mode = buffers.mode();
        if (mode == BufferMode.DOUBLE) {
            return new Charge(demand.streamId(), Collections.unmodifiableMap(loadByDisk),
                2 * demand.peakFragmentBytes(), networkBitsPerSecond, null, cadence);
        }
        Map<String, Double> fill = new TreeMap<>();
        for (String disk : demand.disks().keySet()) {
            fill.put(disk, fillBytesPerNs(model(disk), buffers.readSizes()));
        }
        SharedCharge shared = new SharedCharge(mode.sharedAccount(), buffers.bufferBytes(), 2 - mode.ownBuffers(),
            buffers.holdNs(), Collections.unmodifiableMap(fill));
        return new Charge(demand.streamId(), Collections.unmodifiableMap(loadByDisk),
            mode.ownBuffers() * buffers.bufferBytes(), networkBitsPerSecond, shared, cadence);
    }

    /**
     * The most buffer bytes a nanosecond of reads of {@code model}'s disk can fill with reads of
     * {@code readSizes}: a read of {@code s} bytes is lent the pool's buffer for its aligned span
     * ({@link BufferPool#classCapacity} of {@code s} and two alignment blocks) and takes at least
     * {@link ThroughputModel#fastestNs} of {@code s}, and of one block, the least a direct read
     * reads. Within one buffer class the ratio is highest for the least size, so each class's
     * least size read is enough.
     */
    static double fillBytesPerNs(ThroughputModel model, List<Long> readSizes) {
        double most = 0;
        for (long size : readSizes) {
            long capacity = BufferPool.classCapacity((int) Math.min(1 << 30, size + 2L * DiskIo.ALIGNMENT));
            most = Math.max(most, capacity / (double) Math.max(1, model.fastestNs(Math.max(size, DiskIo.ALIGNMENT))));
        }
        return most;
    }

    /**
     * The part of {@code disk}'s round {@code load} takes under {@code policy}: for ADM2 the
     * lesser of the whole round's charge (its writes' penalty over reads added) and XTREAM's (each
     * stream's peak fragment on the mean curve, its own write curve for a write), so that Rondo's
     * ADM2 admits whatever XTREAM's would.
     */
    long roundNs(AdmissionPolicy policy, String disk, DiskLoad load) {
        return policy.chargesWholeRounds()
            ? Math.min(load.ioNs(), load.writePenaltyNs()
                + model(disk).roundNs(load.streams(), load.bytes(), load.varianceBytes2(), load.peakBytes()))
            : load.ioNs();
    }

    /** How many streams of {@code load} alone fit {@code availableNs} of {@code disk}'s round. */
    long capacity(AdmissionPolicy policy, String disk, DiskLoad load, long availableNs) {
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
     * A new stream's charge: reading every {@code basePeriod} rounds (a recording: every round),
     * in the slot whose rounds, on the disks it touches, are the least loaded with it added.
     */
    Charge chargeNew(AdmissionState current, StreamDemand demand, int basePeriod) {
        AdmissionPolicy policy = current.config.policy();
        int period = demand.writes() ? 1 : basePeriod;
        Charge best = null;
        long bestNs = Long.MAX_VALUE;
        for (int slot = 0; slot < period; slot++) {
            Charge charge = charge(policy, demand, new Cadence(period, slot));
            long worstNs = 0;
            for (Map.Entry<String, DiskLoad> disk : charge.loadByDisk().entrySet()) {
                SlotLoads slots = current.loadByDisk.getOrDefault(disk.getKey(), SlotLoads.NONE);
                worstNs = Math.max(worstNs, slots.worstWith(disk.getValue(), charge.cadence(),
                    load -> roundNs(policy, disk.getKey(), load)));
            }
            if (worstNs < bestNs) {
                best = charge;
                bestNs = worstNs;
            }
        }
        return best;
    }

    /**
     * Whether {@code charge} fits under {@code config} beside streams that take what the rest
     * says; {@code bufferBytesWith} is the buffer memory they take with it added.
     */
    boolean fits(AdmissionConfig config, Map<String, SlotLoads> loadByDisk, long bufferBytesWith,
                 long networkBitsPerSecond, Charge charge) {
        for (Map.Entry<String, DiskLoad> disk : charge.loadByDisk().entrySet()) {
            SlotLoads slots = loadByDisk.getOrDefault(disk.getKey(), SlotLoads.NONE);
            long worstNs = slots.worstWith(disk.getValue(), charge.cadence(),
                load -> roundNs(config.policy(), disk.getKey(), load));
            if (worstNs > config.continuousNs()) {
                return false;
            }
        }
        return bufferBytesWith <= config.bufferCeilingBytes()
            && (!config.networkLimited()
                || networkBitsPerSecond + charge.networkBitsPerSecond() <= config.networkBitsPerSecond());
    }
}

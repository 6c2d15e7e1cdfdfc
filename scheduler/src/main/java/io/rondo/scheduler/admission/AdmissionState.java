package io.rondo.scheduler.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The settings and the admitted streams, in the order they were admitted, with what they take
 * together; immutable: the {@link AdmissionController} replaces it whole on every change.
 */
final class AdmissionState {

    final AdmissionConfig config;
    final Map<Long, AdmittedStream> streams;
    final Map<String, SlotLoads> loadByDisk;
    /** The streams' own buffers. */
    final long ownBufferBytes;
    /** The streams' own buffers and the shared accounts ({@link SharedBuffers}). */
    final long bufferBytes;
    final long networkBitsPerSecond;

    private AdmissionState(AdmissionConfig config, Map<Long, AdmittedStream> streams,
                           Map<String, SlotLoads> loadByDisk, long ownBufferBytes, long networkBitsPerSecond) {
        this.config = config;
        this.streams = streams;
        this.loadByDisk = loadByDisk;
        this.ownBufferBytes = ownBufferBytes;
        this.bufferBytes = ownBufferBytes + SharedBuffers.totalBytes(charges(streams.values(), null));
        this.networkBitsPerSecond = networkBitsPerSecond;
    }

    /** The buffer memory the streams would take with {@code charge} added. */
    long bufferBytesWith(Charge charge) {
        return ownBufferBytes + charge.bufferBytes() + SharedBuffers.totalBytes(charges(streams.values(), charge));
    }

    /** The size of each shared buffer account, by account. */
    Map<String, Long> sharedBufferBytes() {
        return SharedBuffers.sizes(charges(streams.values(), null));
    }

    /** The charges of {@code admitted}, and {@code extra} if not null. */
    static List<Charge> charges(Iterable<AdmittedStream> admitted, Charge extra) {
        List<Charge> all = new ArrayList<>();
        for (AdmittedStream stream : admitted) {
            all.add(stream.charge());
        }
        if (extra != null) {
            all.add(extra);
        }
        return all;
    }

    /** No stream admitted yet, under {@code config}. */
    static AdmissionState empty(AdmissionConfig config) {
        return new AdmissionState(config, Map.of(), Map.of(), 0, 0);
    }

    /** The streams, in admission order, under {@code config}: their sums counted in one pass. */
    static AdmissionState of(AdmissionConfig config, Map<Long, AdmittedStream> streams) {
        Map<String, SlotLoads> used = new HashMap<>();
        long buffer = 0;
        long network = 0;
        for (AdmittedStream admitted : streams.values()) {
            add(used, admitted.charge());
            buffer += admitted.charge().bufferBytes();
            network += admitted.charge().networkBitsPerSecond();
        }
        return new AdmissionState(config, streams, used, buffer, network);
    }

    AdmissionState with(AdmittedStream admitted) {
        Map<Long, AdmittedStream> newStreams = new LinkedHashMap<>(streams);
        newStreams.put(admitted.demand().streamId(), admitted);
        Map<String, SlotLoads> newUsed = new HashMap<>(loadByDisk);
        add(newUsed, admitted.charge());
        return new AdmissionState(config, newStreams, newUsed, ownBufferBytes + admitted.charge().bufferBytes(),
            networkBitsPerSecond + admitted.charge().networkBitsPerSecond());
    }

    AdmissionState without(long streamId) {
        Map<Long, AdmittedStream> newStreams = new LinkedHashMap<>(streams);
        AdmittedStream admitted = newStreams.remove(streamId);
        Map<String, SlotLoads> newUsed = new HashMap<>(loadByDisk);
        Cadence cadence = admitted.charge().cadence();
        admitted.charge().loadByDisk().forEach((disk, load) ->
            newUsed.put(disk, newUsed.get(disk).minus(load, cadence)));
        return new AdmissionState(config, newStreams, newUsed, ownBufferBytes - admitted.charge().bufferBytes(),
            networkBitsPerSecond - admitted.charge().networkBitsPerSecond());
    }

    /** Adds what {@code charge} takes of each disk to the slots its cadence reads in. */
    static void add(Map<String, SlotLoads> loadByDisk, Charge charge) {
        charge.loadByDisk().forEach((disk, load) ->
            loadByDisk.put(disk, loadByDisk.getOrDefault(disk, SlotLoads.NONE).plus(load, charge.cadence())));
    }

    /**
     * The seconds from {@code nowNs} until enough admitted streams have ended, in the order they
     * end, to free {@code excess} of the resource of which each holds its {@code share}: at least 1.
     * If that waits on a stream whose end is unknown, the configured default.
     */
    long retryAfterSeconds(long nowNs, ToLongFunction<AdmittedStream> share, long excess) {
        List<AdmittedStream> holders = new ArrayList<>();
        for (AdmittedStream admitted : streams.values()) {
            if (share.applyAsLong(admitted) > 0) {
                holders.add(admitted);
            }
        }
        holders.sort(Comparator.comparing((AdmittedStream a) -> !a.endKnown())
            .thenComparingLong(a -> a.endNs() - nowNs));
        long freed = 0;
        for (AdmittedStream admitted : holders) {
            if (!admitted.endKnown()) {
                break;
            }
            freed += share.applyAsLong(admitted);
            if (freed >= excess) {
                long remainingNs = Math.max(0, admitted.endNs() - nowNs);
                return Math.max(1, (remainingNs + Charges.NS_PER_SECOND - 1) / Charges.NS_PER_SECOND);
            }
        }
        return config.defaultRetryAfterSeconds();
    }
}

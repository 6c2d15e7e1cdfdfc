package io.rondo.scheduler.admission;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The size of each shared buffer account: the most its streams can hold at once (papers/004
 * Section 4, ClBuf and ClBufRate).
 *
 * <p>A buffer drawn on a shared account is held from its read's start until its fragment is on
 * the wire, at most {@code holdNs} after the read ends (the client takes it at its declared rate;
 * a stream whose fragment is held longer is ended by its guard, its buffers freed). So at any
 * instant {@code t} the buffers held for a disk {@code d} are those of reads on {@code d} that
 * ended within {@code (t - W_d, t]}, {@code W_d} the longest hold of the account's streams on
 * {@code d}, and the one read in flight. A disk reads one IO at a time, and no read of {@code s}
 * bytes takes less than its fastest curve says ({@link ThroughputModel#fastestNs}): of the reads
 * ending in the window, all but the first started inside it, so there are at most
 * {@code 1 + W_d / m_d} of them, {@code m_d} the fastest read of the account's smallest fragment
 * there. With the read in flight, the disk's streams hold at most
 * {@code B_d = (2 + floor(W_d / m_d)) * c_d} bytes, {@code c_d} their largest buffer. An account
 * is sized to the least of that summed over its disks and what its streams could draw at all
 * (each its buffers at once): {@code min(sum_i n_i c_i, sum_d B_d)}.
 *
 * <p>This is what SCAN order, reads at a round's end and the next round's start, and reads ahead
 * of the rounds (a start, a SEEK, a read again) cannot pass, since it counts every read a disk can
 * make. It assumes the disk is no faster than its fastest curve, and the sender no later than the
 * grace in {@code holdNs}: where either fails, the pool lends what is free under the ceiling and
 * counts an overdraft.
 */
final class SharedBuffers {

    private SharedBuffers() {
    }

    /** The size of every account the charges draw on, by account. */
    static Map<String, Long> sizes(Iterable<Charge> charges) {
        Map<String, Long> need = new TreeMap<>();
        Map<String, Map<String, DiskBound>> perDisk = new HashMap<>();
        for (Charge charge : charges) {
            SharedCharge shared = charge.shared();
            if (shared == null) {
                continue;
            }
            need.merge(shared.account(), shared.needBytes(), Long::sum);
            Map<String, DiskBound> disks = perDisk.computeIfAbsent(shared.account(), a -> new HashMap<>());
            shared.fastestReadNs().forEach((disk, fastestNs) -> disks.merge(disk,
                new DiskBound(shared.holdNs(), fastestNs, shared.bufferBytes()), DiskBound::max));
        }
        Map<String, Long> sizes = new TreeMap<>();
        need.forEach((account, needBytes) -> sizes.put(account, Math.min(needBytes, bytes(perDisk.get(account)))));
        return sizes;
    }

    /** The bound of an account whose streams are all like {@code shared}: what any number of them hold at most. */
    static long boundBytes(SharedCharge shared) {
        Map<String, DiskBound> disks = new HashMap<>();
        shared.fastestReadNs().forEach((disk, fastestNs) ->
            disks.put(disk, new DiskBound(shared.holdNs(), fastestNs, shared.bufferBytes())));
        return bytes(disks);
    }

    private static long bytes(Map<String, DiskBound> disks) {
        long bound = 0;
        for (DiskBound disk : disks.values()) {
            bound = saturatedAdd(bound, disk.bytes());
        }
        return bound;
    }

    /**
     * One disk's part of an account's bound: its streams' longest hold, their fastest read there,
     * and their largest buffer.
     */
    private record DiskBound(long holdNs, long fastestReadNs, long bufferBytes) {

        DiskBound max(DiskBound other) {
            return new DiskBound(Math.max(holdNs, other.holdNs), Math.min(fastestReadNs, other.fastestReadNs),
                Math.max(bufferBytes, other.bufferBytes));
        }

        /** {@code (2 + floor(W / m)) * c}. */
        long bytes() {
            return saturatedMultiply(2 + holdNs / Math.max(1, fastestReadNs), bufferBytes);
        }
    }

    /** The bytes all accounts take together. */
    static long totalBytes(Iterable<Charge> charges) {
        long total = 0;
        for (long bytes : sizes(charges).values()) {
            total += bytes;
        }
        return total;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long saturatedMultiply(long a, long b) {
        return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}

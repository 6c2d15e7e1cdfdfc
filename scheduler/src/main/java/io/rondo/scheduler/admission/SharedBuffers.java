package io.rondo.scheduler.admission;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The size of each shared buffer account: the most its streams can hold at once (papers/004
 * Section 4, ClBuf and ClBufRate).
 *
 * <p>A buffer drawn on a shared account is held from its read's start until its fragment is on
 * the wire, at most {@code W} after the read ends ({@code holdNs}: the fragment's send at the
 * client's declared rate and the server's grace; a client that holds it longer is ended by its
 * stream's guard). So at any instant {@code t} the buffers held for reads on disk {@code d} are
 * those of reads that ended within {@code (t - W_d, t]}, {@code W_d} the longest hold of the
 * account's streams there, and the one read in flight. A disk reads one IO at a time, and no read
 * of {@code s} bytes takes less than its fastest curve says ({@link ThroughputModel#fastestNs}):
 * of the reads that ended in the window, all but the first started inside it, so together they
 * fill at most {@code rho_d W_d} bytes of buffers, {@code rho_d} the most buffer bytes a
 * nanosecond of the disk's reads can fill (a buffer's capacity over the fastest read of the
 * least fragment it is lent for, over every size the streams read). With the first and the read in
 * flight, one buffer each, the disk's reads hold at most {@code B_d = rho_d W_d + 2 c_d} bytes,
 * {@code c_d} the largest buffer. An account is sized to the least of that summed over its disks
 * and what its streams could draw at all, each all its buffers at once:
 * {@code min(sum_i n_i c_i, sum_d B_d)}.
 *
 * <p>SCAN order, reads at a round's end and the next round's start, and reads ahead of the rounds
 * (a start, a SEEK, a read again) cannot pass it, since it counts every read a disk can make. It
 * assumes the disk no faster than its fastest curve and the sender no later than the grace: where
 * either fails, the pool lends what is free under the ceiling and counts an overdraft.
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
            shared.fillBytesPerNs().forEach((disk, fill) -> disks.merge(disk,
                new DiskBound(shared.holdNs(), fill, shared.bufferBytes()), DiskBound::max));
        }
        Map<String, Long> sizes = new TreeMap<>();
        need.forEach((account, needBytes) -> sizes.put(account, Math.min(needBytes, bytes(perDisk.get(account)))));
        return sizes;
    }

    /** The bound of an account whose streams are all like {@code shared}: what any number of them hold at most. */
    static long boundBytes(SharedCharge shared) {
        Map<String, DiskBound> disks = new HashMap<>();
        shared.fillBytesPerNs().forEach((disk, fill) ->
            disks.put(disk, new DiskBound(shared.holdNs(), fill, shared.bufferBytes())));
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
     * One disk's part of an account's bound: its streams' longest hold, the most buffer bytes a
     * nanosecond of its reads fills for them, and their largest buffer.
     */
    private record DiskBound(long holdNs, double fillBytesPerNs, long bufferBytes) {

        DiskBound max(DiskBound other) {
            return new DiskBound(Math.max(holdNs, other.holdNs), Math.max(fillBytesPerNs, other.fillBytesPerNs),
                Math.max(bufferBytes, other.bufferBytes));
        }

        /** {@code rho W + 2 c}. */
        long bytes() {
            double filled = Math.ceil(fillBytesPerNs * holdNs);
            return filled >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : saturatedAdd((long) filled, 2 * bufferBytes);
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

    /**
     * How many streams charged {@code charge} the buffer ceiling holds: each its own buffers, and
     * together their shared account, which stops growing at its bound.
     */
    static long capacity(Charge charge, long ceilingBytes) {
        if (charge.shared() == null) {
            return charge.bufferBytes() > 0 ? ceilingBytes / charge.bufferBytes() : Integer.MAX_VALUE;
        }
        long unbounded = ceilingBytes / charge.mostBufferBytes();
        long boundBytes = SharedBuffers.boundBytes(charge.shared());
        if (boundBytes > ceilingBytes) {
            return unbounded;
        }
        return Math.max(unbounded, charge.bufferBytes() == 0 ? Integer.MAX_VALUE
            : (ceilingBytes - boundBytes) / charge.bufferBytes());
    }
}

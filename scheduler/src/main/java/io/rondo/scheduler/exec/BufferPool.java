package io.rondo.scheduler.exec;

import io.rondo.scheduler.device.AlignedBuffers;
import io.rondo.scheduler.device.DiskIo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The buffer manager's pool (papers/001 Section 6(c)): aligned direct buffers, in power-of-two
 * size classes from 4 KiB, under a memory ceiling, reused rather than allocated per read.
 *
 * <p>A stream's reads draw on what its admission reserved, so a burst of discrete reads cannot
 * starve an admitted stream of memory (papers/004 Section 4). A double-buffered stream (DblBuf)
 * reserves two buffers of its largest fragment ({@link #reserveStream(long, int)}) and never
 * holds more than two at once. A stream whose client buffers and receives fast holds a fragment
 * only while it is read and sent, so it reserves fewer buffers of its own, or none, and draws the
 * rest from a shared account ({@link #reserveStream(long, StreamBudget)}, {@link #shareBytes}):
 * one account for all such streams of a kind, sized by admission to the most they can hold at
 * once. Discrete reads take what the reservations and the shared accounts leave under the
 * ceiling, and are refused (null) past it. Thread-safe: executors acquire, senders release.
 *
 * <p>The ceiling may move while streams play ({@link #ceilingBytes(long)}). Lowering it never
 * takes back what was promised: every stream keeps its reservation, so an admitted stream's reads
 * always get their buffers, and discrete reads keep what they were lent. Until the bytes in use
 * fall under the new ceiling, discrete reads are refused and no new stream can reserve; idle
 * buffers kept for reuse are let go at once down to it.
 */
public final class BufferPool {

    /** The stream id of buffers lent to discrete reads. */
    public static final long NO_STREAM = -1;

    private static final int SMALLEST_CLASS = Integer.numberOfTrailingZeros(DiskIo.ALIGNMENT);

    private long ceilingBytes;
    private final List<ConcurrentLinkedDeque<PooledBuffer>> free = new ArrayList<>();
    private final Map<Long, StreamAccount> streams = new ConcurrentHashMap<>();
    private final Map<String, SharedAccount> shared = new ConcurrentHashMap<>();
    private long reservedBytes;
    private long discreteInUseBytes;
    private long cachedBytes;
    private int outstanding;
    private long overdrafts;

    public BufferPool(long ceilingBytes) {
        this.ceilingBytes = checkCeiling(ceilingBytes);
        for (int sizeClass = SMALLEST_CLASS; sizeClass <= 30; sizeClass++) {
            free.add(new ConcurrentLinkedDeque<>());
        }
    }

    /** The most memory the pool lends and keeps, in bytes. */
    public synchronized long ceilingBytes() {
        return ceilingBytes;
    }

    /**
     * Moves the ceiling to {@code bytes}, from any thread. Raising it makes room at once; lowering
     * it keeps every stream's reservation and every buffer lent, refuses discrete reads and new
     * reservations until what is in use falls under it, and lets idle buffers go down to it.
     */
    public void ceilingBytes(long bytes) {
        synchronized (this) {
            ceilingBytes = checkCeiling(bytes);
        }
        for (int index = free.size() - 1; index >= 0; index--) {
            ConcurrentLinkedDeque<PooledBuffer> idle = free.get(index);
            while (keepsTooMuch()) {
                PooledBuffer dropped = idle.pollLast();
                if (dropped == null) {
                    break;
                }
                synchronized (this) {
                    cachedBytes -= dropped.capacity();
                }
            }
        }
    }

    /** Bytes of idle buffers kept for reuse. */
    public synchronized long cachedBytes() {
        return cachedBytes;
    }

    /** Bytes promised to admitted streams' own buffers (two each when double-buffered). */
    public synchronized long reservedBytes() {
        return reservedBytes;
    }

    /** Bytes the shared accounts take: each its size, or what its streams hold where that is more. */
    public synchronized long sharedBytes() {
        long bytes = 0;
        for (SharedAccount account : shared.values()) {
            bytes += account.takenBytes();
        }
        return bytes;
    }

    /** Bytes the streams drawing on shared account {@code name} hold right now. */
    public synchronized long sharedHeldBytes(String name) {
        SharedAccount account = shared.get(name);
        return account == null ? 0 : account.heldBytes;
    }

    /**
     * Times a stream's read found its shared account full and borrowed what was free under the
     * ceiling instead: the account's bound was passed (a disk read faster than its model says, or
     * the server sent slower than it promised).
     */
    public synchronized long sharedOverdrafts() {
        return overdrafts;
    }

    /**
     * Sizes shared account {@code name} to {@code bytes}. Growing it takes room under the ceiling
     * and is refused (false) past it; shrinking it keeps what its streams hold until they give it
     * back. Admission sizes it as streams drawing on it come and go.
     */
    public synchronized boolean shareBytes(String name, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a shared account cannot be negative, was " + bytes);
        }
        SharedAccount account = shared.computeIfAbsent(name, n -> new SharedAccount());
        long growth = Math.max(bytes, account.heldBytes) - account.takenBytes();
        if (growth > 0 && inUse() + growth > ceilingBytes) {
            return false;
        }
        account.sizeBytes = bytes;
        return true;
    }

    /** The size shared account {@code name} was given, 0 if none. */
    public synchronized long shareBytes(String name) {
        SharedAccount account = shared.get(name);
        return account == null ? 0 : account.sizeBytes;
    }

    /** Bytes lent to discrete reads right now. */
    public synchronized long discreteInUseBytes() {
        return discreteInUseBytes;
    }

    /** Bytes in use: what streams reserved, the shared accounts, and what discrete reads hold. */
    public synchronized long inUseBytes() {
        return inUse();
    }

    private long inUse() {
        return reservedBytes + sharedBytes() + discreteInUseBytes;
    }

    /** Buffers lent and not yet released. */
    public synchronized int outstanding() {
        return outstanding;
    }

    /** The capacity of the buffer that would hold {@code bytes}: the next power of two, at least 4 KiB. */
    public static int classCapacity(int bytes) {
        return 1 << sizeClass(bytes);
    }

    /**
     * Reserves the double buffer of a stream whose fragments are at most {@code maxFragmentBytes}
     * (aligned span included). False if that would pass the ceiling: admission must refuse it.
     */
    public boolean reserveStream(long streamId, int maxFragmentBytes) {
        return reserveStream(streamId, StreamBudget.doubleBuffer(maxFragmentBytes));
    }

    /**
     * Reserves {@code budget}'s own buffers for a stream; its reads past them draw on its shared
     * account, if it names one. False if the own buffers would pass the ceiling: admission must
     * refuse it.
     */
    public synchronized boolean reserveStream(long streamId, StreamBudget budget) {
        if (streams.containsKey(streamId)) {
            throw new IllegalStateException("stream " + streamId + " already has a reservation");
        }
        long bytes = budget.ownBytes();
        if (inUse() + bytes > ceilingBytes) {
            return false;
        }
        if (budget.sharedAccount() != null) {
            shared.computeIfAbsent(budget.sharedAccount(), n -> new SharedAccount());
        }
        StreamAccount account = new StreamAccount(budget);
        streams.put(streamId, account);
        recount(account);
        return true;
    }

    /**
     * Gives a stream a new budget from now on (a cadence that reads several fragments into one
     * buffer, or back to one). Its own buffers still lent at the old size stay counted as they are
     * until they come back, so a smaller budget frees memory only as they do. False, and nothing
     * changed, if a larger one would pass the ceiling; a new shared account is opened if named.
     *
     * @throws StreamEndedException if the stream has no reservation
     */
    public synchronized boolean rebudget(long streamId, StreamBudget budget) {
        StreamAccount account = streams.get(streamId);
        if (account == null || account.closed) {
            throw new StreamEndedException(streamId);
        }
        long more = account.countedWith(budget) - account.counted;
        if (more > 0 && inUse() + more > ceilingBytes) {
            return false;
        }
        if (budget.sharedAccount() != null) {
            shared.computeIfAbsent(budget.sharedAccount(), n -> new SharedAccount());
        }
        account.budget = budget;
        recount(account);
        return true;
    }

    /** Ends a stream's reservation; its buffers still lent are accounted until released. */
    public synchronized void releaseStream(long streamId) {
        StreamAccount account = streams.get(streamId);
        if (account == null) {
            throw new IllegalStateException("stream " + streamId + " has no reservation");
        }
        account.closed = true;
        if (account.held() == 0) {
            streams.remove(streamId);
            reservedBytes -= account.counted;
        }
    }

    /** A buffer of at least {@code bytes} for a discrete read, or null if the ceiling is reached. */
    public PooledBuffer acquire(int bytes) {
        int sizeClass = sizeClass(bytes);
        synchronized (this) {
            if (inUse() + (1L << sizeClass) > ceilingBytes) {
                return null;
            }
            discreteInUseBytes += 1L << sizeClass;
            outstanding++;
        }
        return take(sizeClass, NO_STREAM, false);
    }

    /**
     * A buffer for a fragment of {@code bytes} of a stream: one of its own while it holds fewer
     * than its budget's, else one drawn on its shared account while that has room. A shared
     * account that is full lends what is free under the ceiling rather than fail an admitted
     * stream's read, and counts it ({@link #sharedOverdrafts}).
     *
     * @throws StreamEndedException  if the stream has no reservation (it ended: the read is cancelled)
     * @throws IllegalStateException if the stream already holds every buffer its budget allows, or
     *                               the fragment is larger than it reserved for
     */
    public PooledBuffer acquireForStream(long streamId, int bytes) {
        int sizeClass = sizeClass(bytes);
        boolean fromShared;
        synchronized (this) {
            StreamAccount account = streams.get(streamId);
            if (account == null || account.closed) {
                throw new StreamEndedException(streamId);
            }
            StreamBudget budget = account.budget;
            long capacity = 1L << sizeClass;
            if (capacity > budget.bufferBytes()) {
                throw new IllegalStateException("a fragment of " + bytes + " bytes exceeds the " + budget.bufferBytes()
                    + "-byte buffers reserved for stream " + streamId);
            }
            fromShared = account.ownHeld >= budget.ownBuffers();
            if (fromShared && account.sharedHeld >= budget.sharedBuffers()) {
                throw new IllegalStateException("stream " + streamId + " already holds "
                    + (budget.sharedBuffers() == 0 && budget.ownBuffers() == 2 ? "both of its buffers"
                    : "the " + budget.maxBuffers() + " buffers its budget allows"));
            }
            if (fromShared) {
                SharedAccount pooled = shared.get(budget.sharedAccount());
                if (pooled.heldBytes + capacity > pooled.sizeBytes) {
                    long more = Math.max(0, pooled.heldBytes + capacity - pooled.takenBytes());
                    if (inUse() + more > ceilingBytes) {
                        throw new IllegalStateException("stream " + streamId + "'s shared account '"
                            + budget.sharedAccount() + "' is full and nothing is free under the ceiling");
                    }
                    overdrafts++;
                }
                pooled.heldBytes += capacity;
                account.sharedHeld++;
            } else {
                account.ownHeld++;
                account.ownHeldBytes += capacity;
                recount(account);
            }
            outstanding++;
        }
        return take(sizeClass, streamId, fromShared);
    }

    private PooledBuffer take(int sizeClass, long streamId, boolean fromShared) {
        PooledBuffer cached = free.get(sizeClass - SMALLEST_CLASS).pollFirst();
        if (cached != null) {
            synchronized (this) {
                cachedBytes -= cached.capacity();
            }
            cached.buffer().clear();
            return new PooledBuffer(this, cached.buffer(), sizeClass, streamId, fromShared);
        }
        return new PooledBuffer(this, AlignedBuffers.allocate(1 << sizeClass), sizeClass, streamId, fromShared);
    }

    void giveBack(PooledBuffer buffer) {
        int capacity = buffer.capacity();
        boolean keep;
        synchronized (this) {
            outstanding--;
            if (buffer.streamId() == NO_STREAM) {
                discreteInUseBytes -= capacity;
            } else {
                StreamAccount account = streams.get(buffer.streamId());
                if (buffer.fromShared()) {
                    account.sharedHeld--;
                    shared.get(account.budget.sharedAccount()).heldBytes -= capacity;
                } else {
                    account.ownHeld--;
                    account.ownHeldBytes -= capacity;
                }
                if (account.closed && account.held() == 0) {
                    streams.remove(buffer.streamId());
                    reservedBytes -= account.counted;
                } else {
                    recount(account);
                }
            }
            keep = cachedBytes + capacity + inUse() <= ceilingBytes;
            if (keep) {
                cachedBytes += capacity;
            }
        }
        if (keep) {
            free.get(buffer.sizeClass() - SMALLEST_CLASS).offerFirst(buffer);
        }
    }

    private synchronized boolean keepsTooMuch() {
        return cachedBytes > 0 && cachedBytes + inUse() > ceilingBytes;
    }

    private static long checkCeiling(long bytes) {
        if (bytes < DiskIo.ALIGNMENT) {
            throw new IllegalArgumentException("a buffer ceiling must be at least " + DiskIo.ALIGNMENT
                + " bytes, was " + bytes);
        }
        return bytes;
    }

    private static int sizeClass(int bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("a buffer must hold at least one byte, was " + bytes);
        }
        if (bytes > 1 << 30) {
            throw new IllegalArgumentException("a buffer of " + bytes + " bytes is larger than Rondo lends (1 GiB)");
        }
        int sizeClass = 32 - Integer.numberOfLeadingZeros(bytes - 1);
        return Math.max(sizeClass, SMALLEST_CLASS);
    }

    /** Counts {@code account}'s own buffers again after a change, in {@link #reservedBytes}. */
    private void recount(StreamAccount account) {
        long counted = account.countedWith(account.budget);
        reservedBytes += counted - account.counted;
        account.counted = counted;
    }

    private static final class StreamAccount {
        StreamBudget budget;
        int ownHeld;
        long ownHeldBytes;
        int sharedHeld;
        /** What {@link #reservedBytes} counts for the stream's own buffers. */
        long counted;
        boolean closed;

        StreamAccount(StreamBudget budget) {
            this.budget = budget;
        }

        int held() {
            return ownHeld + sharedHeld;
        }

        /** Its own buffers lent as they are, and the rest of those {@code next} reserves at its size. */
        long countedWith(StreamBudget next) {
            return Math.max(next.ownBytes(),
                ownHeldBytes + (long) Math.max(0, next.ownBuffers() - ownHeld) * next.bufferBytes());
        }
    }

    /** Memory shared by the streams drawing on it: its size, and what they hold. */
    private static final class SharedAccount {
        long sizeBytes;
        long heldBytes;

        long takenBytes() {
            return Math.max(sizeBytes, heldBytes);
        }
    }
}

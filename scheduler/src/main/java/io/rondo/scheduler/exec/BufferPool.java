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
 * <p>Streams are double-buffered (papers/004 Section 4): admitting a stream reserves two buffers
 * of its largest fragment ({@link #reserveStream}), the stream never holds more than two at once,
 * and its reads draw on that reservation, so a burst of discrete reads cannot starve an admitted
 * stream of memory. Discrete reads take what the reservations leave under the ceiling, and are
 * refused (null) past it. Thread-safe: executors acquire, senders release.
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
    private long reservedBytes;
    private long discreteInUseBytes;
    private long cachedBytes;
    private int outstanding;

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

    /** Bytes promised to admitted streams (two buffers each). */
    public synchronized long reservedBytes() {
        return reservedBytes;
    }

    /** Bytes lent to discrete reads right now. */
    public synchronized long discreteInUseBytes() {
        return discreteInUseBytes;
    }

    /** Bytes in use: what streams reserved plus what discrete reads hold. */
    public synchronized long inUseBytes() {
        return reservedBytes + discreteInUseBytes;
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
    public synchronized boolean reserveStream(long streamId, int maxFragmentBytes) {
        if (streams.containsKey(streamId)) {
            throw new IllegalStateException("stream " + streamId + " already has a reservation");
        }
        StreamAccount account = new StreamAccount(classCapacity(maxFragmentBytes));
        long bytes = account.countedWith(account.capacity);
        if (reservedBytes + discreteInUseBytes + bytes > ceilingBytes) {
            return false;
        }
        streams.put(streamId, account);
        recount(account);
        return true;
    }

    /**
     * Lets a stream's reads take buffers of up to {@code maxReadBytes} from now on (a cadence that
     * reads several fragments at once, or back to one). Its reservation counts the buffers it holds
     * as they are and the rest of its two at the new size, so a shrink frees memory as the larger
     * buffers come back. False, and nothing changed, if a growth would pass the ceiling.
     */
    public synchronized boolean resizeStream(long streamId, int maxReadBytes) {
        StreamAccount account = streams.get(streamId);
        if (account == null || account.closed) {
            throw new StreamEndedException(streamId);
        }
        int capacity = classCapacity(maxReadBytes);
        long more = account.countedWith(capacity) - account.counted;
        if (more > 0 && reservedBytes + discreteInUseBytes + more > ceilingBytes) {
            return false;
        }
        account.capacity = capacity;
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
        if (account.held == 0) {
            streams.remove(streamId);
            reservedBytes -= account.counted;
        }
    }

    /** A buffer of at least {@code bytes} for a discrete read, or null if the ceiling is reached. */
    public PooledBuffer acquire(int bytes) {
        int sizeClass = sizeClass(bytes);
        synchronized (this) {
            if (reservedBytes + discreteInUseBytes + (1L << sizeClass) > ceilingBytes) {
                return null;
            }
            discreteInUseBytes += 1L << sizeClass;
            outstanding++;
        }
        return take(sizeClass, NO_STREAM);
    }

    /**
     * One of a stream's two buffers, for a fragment of {@code bytes}.
     *
     * @throws StreamEndedException  if the stream has no reservation (it ended: the read is cancelled)
     * @throws IllegalStateException if the stream already holds two buffers, or the fragment is
     *                               larger than it reserved for
     */
    public PooledBuffer acquireForStream(long streamId, int bytes) {
        int sizeClass = sizeClass(bytes);
        synchronized (this) {
            StreamAccount account = streams.get(streamId);
            if (account == null || account.closed) {
                throw new StreamEndedException(streamId);
            }
            if (account.held >= 2) {
                throw new IllegalStateException("stream " + streamId + " already holds both of its buffers");
            }
            if ((1 << sizeClass) > account.capacity) {
                throw new IllegalStateException("a fragment of " + bytes + " bytes exceeds the " + account.capacity
                    + "-byte buffers reserved for stream " + streamId);
            }
            account.held++;
            account.heldBytes += 1L << sizeClass;
            recount(account);
            outstanding++;
        }
        return take(sizeClass, streamId);
    }

    private PooledBuffer take(int sizeClass, long streamId) {
        PooledBuffer cached = free.get(sizeClass - SMALLEST_CLASS).pollFirst();
        if (cached != null) {
            synchronized (this) {
                cachedBytes -= cached.capacity();
            }
            cached.buffer().clear();
            return new PooledBuffer(this, cached.buffer(), sizeClass, streamId);
        }
        return new PooledBuffer(this, AlignedBuffers.allocate(1 << sizeClass), sizeClass, streamId);
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
                account.held--;
                account.heldBytes -= capacity;
                if (account.closed && account.held == 0) {
                    streams.remove(buffer.streamId());
                    reservedBytes -= account.counted;
                } else {
                    recount(account);
                }
            }
            keep = cachedBytes + capacity + reservedBytes + discreteInUseBytes <= ceilingBytes;
            if (keep) {
                cachedBytes += capacity;
            }
        }
        if (keep) {
            free.get(buffer.sizeClass() - SMALLEST_CLASS).offerFirst(buffer);
        }
    }

    private synchronized boolean keepsTooMuch() {
        return cachedBytes > 0 && cachedBytes + reservedBytes + discreteInUseBytes > ceilingBytes;
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

    /** Counts {@code account}'s reservation again after a change, in {@link #reservedBytes}. */
    private void recount(StreamAccount account) {
        long counted = account.countedWith(account.capacity);
        reservedBytes += counted - account.counted;
        account.counted = counted;
    }

    private static final class StreamAccount {
        int capacity;
        int held;
        long heldBytes;
        /** What {@link #reservedBytes} counts for the stream. */
        long counted;
        boolean closed;

        StreamAccount(int capacity) {
            this.capacity = capacity;
        }

        /** The buffers it holds as they are, and the rest of its two at {@code size}. */
        long countedWith(int size) {
            return heldBytes + (long) Math.max(0, 2 - held) * size;
        }
    }
}

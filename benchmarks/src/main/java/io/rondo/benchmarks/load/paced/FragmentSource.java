package io.rondo.benchmarks.load.paced;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A guaranteed stream as its application reads it: the fragments Rondo's stream protocol delivers
 * are queued as they arrive, and the paced reader takes them block by block, each fragment's
 * blocks spread over its display time. A read whose fragment has not yet arrived waits for it, so
 * its jitter is exactly how much a late delivery held the application up; a read of a fragment
 * already here costs only the reader's own wake-up. It also keeps the stream's RFC 3550 jitter
 * over the DATA themselves (arrival against deadline). Fragments are offered on the stream's event
 * loop and taken on the reader's thread.
 */
public final class FragmentSource implements PacedReader.BlockSource {

    /** One DATA: when it arrived, when it was due, its display time and its size. */
    public record Fragment(long arrivalNs, long dueNs, long durationNs, int bytes) {
    }

    private static final Fragment END = new Fragment(0, 0, 0, -1);
    private static final long WAIT_STEP_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final LinkedBlockingQueue<Fragment> arrived = new LinkedBlockingQueue<>();
    private final InterarrivalJitter dataJitter = new InterarrivalJitter();
    private final int blockBytes;
    private Fragment current;
    private long currentOffset;
    private volatile long waits;
    private volatile boolean endReached;

    /** @param blockBytes how much one read takes */
    public FragmentSource(int blockBytes) {
        if (blockBytes < 1) {
            throw new IllegalArgumentException("a block holds at least one byte");
        }
        this.blockBytes = blockBytes;
    }

    /** A DATA arrived; called on the stream's event loop. */
    public void offer(Fragment fragment) {
        synchronized (dataJitter) {
            dataJitter.arrived(fragment.dueNs(), fragment.arrivalNs());
        }
        arrived.add(fragment);
    }

    /** The stream ended: a read that waits for a fragment gets the end instead. */
    public void end() {
        arrived.add(END);
    }

    /**
     * When the first fragment is due (playback starts then, as a player that trusts the deadlines
     * starts), waiting for it to arrive; -1 if the stream ended first or {@code giveUpNs} of
     * waiting passed.
     */
    public long firstDueNs(long giveUpNs) throws InterruptedException {
        long waitedNs = 0;
        while (waitedNs < giveUpNs) {
            Fragment first = arrived.peek();
            if (first != null) {
                return first == END ? -1 : first.dueNs();
            }
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(Math.min(WAIT_STEP_NS, giveUpNs - waitedNs)) + 1);
            waitedNs += WAIT_STEP_NS;
        }
        return -1;
    }

    @Override
    public long readNext() throws InterruptedException {
        if (current == null || currentOffset >= current.bytes()) {
            Fragment next = arrived.poll();
            if (next == null) {
                waits++;
                next = arrived.take();
            }
            if (next == END) {
                arrived.add(END);
                endReached = true;
                return -1;
            }
            current = next;
            currentOffset = 0;
        }
        int length = (int) Math.min(blockBytes, current.bytes() - currentOffset);
        currentOffset += length;
        return blockMediaNs(current, length);
    }

    /**
     * Reads that found their fragment not yet arrived and waited for it: the only reads whose
     * jitter Rondo's delivery can cause; every other read's jitter is the reader's own wake-up.
     */
    public long waits() {
        return waits;
    }

    /** Whether a read found the stream ended: before its reads were over, the stream was cut short. */
    public boolean endReached() {
        return endReached;
    }

    /** A block's share of its fragment's display time: its bytes' share of the fragment's. */
    static long blockMediaNs(Fragment fragment, int length) {
        return fragment.bytes() == 0 ? fragment.durationNs()
            : Math.round((double) fragment.durationNs() * length / fragment.bytes());
    }

    /** The RFC 3550 jitter of the DATA's arrivals against their deadlines, in nanoseconds; NaN under two DATA. */
    public double dataJitterNs() {
        synchronized (dataJitter) {
            return dataJitter.count() >= 2 ? dataJitter.jitterNs() : Double.NaN;
        }
    }
}

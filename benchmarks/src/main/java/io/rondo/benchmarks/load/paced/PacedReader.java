package io.rondo.benchmarks.load.paced;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The main loop of rwrt (papers/002 Section 5, Figure 13), the isochronous reader whose jitter
 * Figure 14 plots: sleep until the next read is due, read one block, and count the read's jitter,
 * its completion minus its due time; the next read is due one block's media time later. As in
 * rwrt, a missed deadline is forgiven: the next due time is never in the past, so one slow read
 * is counted once rather than making every later read late too.
 *
 * <p>What a read is comes from a {@link BlockSource}: an HTTP range request to nginx, or a block
 * of a fragment that Rondo's stream protocol delivered. The clock and the sleep are injected, so
 * the arithmetic is tested without sleeping. Not thread-safe: one thread runs one reader.
 */
public final class PacedReader {

    /** Reads one block at a time, blocking until it has it. */
    public interface BlockSource {
        /**
         * Reads the next block.
         *
         * @return its media time, in nanoseconds: how long after this read the next is due; -1 at
         *     the end of the media, when nothing was read and the reader stops
         */
        long readNext() throws IOException, InterruptedException;
    }

    /** Waits until a moment on the reader's clock. */
    public interface Sleeper {
        /** Returns at {@code dueNs} or soon after; at once if it has passed. */
        void sleepUntil(long dueNs) throws InterruptedException;
    }

    /** Told of every read, on the reader's thread. */
    public interface ReadListener {
        /**
         * A read due at {@code dueNs}, whose thread woke at {@code wokeNs}, completed at {@code doneNs}:
         * {@code wokeNs - dueNs} is the reader's own wake-up delay, the part of the jitter no server causes.
         */
        void read(long dueNs, long wokeNs, long doneNs);
    }

    /** Parks the reader's thread until each due time on {@code nanoClock}; an interrupt ends the wait. */
    public static Sleeper parkingOn(LongSupplier nanoClock) {
        return dueNs -> {
            for (long leftNs = dueNs - nanoClock.getAsLong(); leftNs > 0; leftNs = dueNs - nanoClock.getAsLong()) {
                LockSupport.parkNanos(leftNs);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        };
    }

    private final BlockSource source;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;
    private final ReadListener listener;
    private final InterarrivalJitter interarrival = new InterarrivalJitter();
    private long reads;

    /**
     * @param source what a read reads
     * @param nanoClock the monotonic clock due times and completions are on
     * @param sleeper how the reader waits for a due time
     * @param listener where each read's due and completion times go
     */
    public PacedReader(BlockSource source, LongSupplier nanoClock, Sleeper sleeper, ReadListener listener) {
        this.source = source;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
        this.listener = listener;
    }

    /**
     * Reads block after block from {@code firstDueNs} until the media ends or a read would be due
     * at or after {@code endNs}.
     *
     * @param firstDueNs when the first read is due
     * @param endNs when the reader stops
     * @return the reads made
     */
    public long run(long firstDueNs, long endNs) throws IOException, InterruptedException {
        long dueNs = firstDueNs;
        while (dueNs - endNs < 0) {
            sleeper.sleepUntil(dueNs);
            long wokeNs = nanoClock.getAsLong();
            long mediaNs = source.readNext();
            if (mediaNs < 0) {
                break;
            }
            long doneNs = nanoClock.getAsLong();
            reads++;
            listener.read(dueNs, wokeNs, doneNs);
            interarrival.arrived(dueNs, doneNs);
            dueNs = nextDueNs(dueNs, mediaNs, doneNs);
        }
        return reads;
    }

    /** rwrt's rule: the next read is due one block's media time on, but never before now. */
    static long nextDueNs(long dueNs, long mediaNs, long nowNs) {
        long nextNs = dueNs + mediaNs;
        return nextNs - nowNs < 0 ? nowNs : nextNs;
    }

    /** The reads so far's RFC 3550 interarrival jitter, with the due time as the timestamp. */
    public InterarrivalJitter interarrival() {
        return interarrival;
    }

    /** Reads made so far. */
    public long reads() {
        return reads;
    }
}

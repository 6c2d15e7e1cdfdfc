package io.rondo.server.live;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What one recording did: fragments cut, write rounds on time and late, bytes received and written. */
public final class LiveStats {

    private final LongAdder received = new LongAdder();
    private final AtomicLong cut = new AtomicLong();
    private final AtomicLong writeRounds = new AtomicLong();
    private final AtomicLong lateWriteRounds = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final LiveTotals totals;

    LiveStats(LiveTotals totals) {
        this.totals = totals;
    }

    /** The publisher sent {@code bytes} more. */
    public void received(long bytes) {
        received.add(bytes);
        totals.received(bytes);
    }

    void cut() {
        cut.incrementAndGet();
    }

    void writing(long bytes) {
        pendingBytes.set(bytes);
    }

    void written(long bytes) {
        writeRounds.incrementAndGet();
        bytesWritten.addAndGet(bytes);
        pendingBytes.set(0);
    }

    void lateWrite() {
        lateWriteRounds.incrementAndGet();
    }

    /** Bytes the publisher sent so far. */
    public long bytesReceived() {
        return received.sum();
    }

    /** Fragments cut so far. */
    public long fragmentsCut() {
        return cut.get();
    }

    /** Write rounds done: each one round's fragments, forced to disk. */
    public long writeRounds() {
        return writeRounds.get();
    }

    /** Write rounds the disk dropped unwritten at their round's end, written again the round after. */
    public long lateWriteRounds() {
        return lateWriteRounds.get();
    }

    /** Bytes written to the disk, block padding included. */
    public long bytesWritten() {
        return bytesWritten.get();
    }
}

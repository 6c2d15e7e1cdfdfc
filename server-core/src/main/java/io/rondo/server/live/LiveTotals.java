package io.rondo.server.live;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What every recording of a server did: for its metrics. */
public final class LiveTotals {

    private final AtomicLong started = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();
    private final AtomicLong writeRounds = new AtomicLong();
    private final AtomicLong lateWriteRounds = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final LongAdder bytesReceived = new LongAdder();

    void recordingStarted() {
        started.incrementAndGet();
    }

    void recordingEnded() {
        ended.incrementAndGet();
    }

    void written(long bytes) {
        writeRounds.incrementAndGet();
        bytesWritten.addAndGet(bytes);
    }

    void received(long bytes) {
        bytesReceived.add(bytes);
    }

    void lateWrite() {
        lateWriteRounds.incrementAndGet();
    }

    /** Recordings being written now. */
    public long active() {
        return started.get() - ended.get();
    }

    /** Recordings started since the server started. */
    public long started() {
        return started.get();
    }

    /** Write rounds done on time, every recording. */
    public long writeRounds() {
        return writeRounds.get();
    }

    /** Write rounds the disks dropped at their round's end and wrote a round later. */
    public long lateWriteRounds() {
        return lateWriteRounds.get();
    }

    /** Bytes the recordings wrote, block padding included. */
    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** Bytes the recordings' publishers sent, every recording. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }
}

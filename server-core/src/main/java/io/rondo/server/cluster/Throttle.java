package io.rondo.server.cluster;

import org.agrona.concurrent.NanoClock;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A rate shared by every copy a node makes to other nodes ({@code cluster.copyRate}): a copy reads
 * its source through {@link #wrap}, which holds each read back until the bytes read so far fit
 * the rate since the copies began, so copying never takes more than its share of the disks. The
 * rate is a budget, not a reservation; the copies' reads are D-requests like any other, and the
 * disks' schedulers keep them out of the streams' share of each round.
 */
public final class Throttle {

    /** Credit that may build up while nothing is copied: a quarter of a second. */
    private static final long BURST_NS = TimeUnit.MILLISECONDS.toNanos(250);

    private final long bytesPerSecond;
    private final NanoClock clock;
    private long allowedAtNs;

    /**
     * @param bytesPerSecond the most the copies read a second
     * @param clock          the clock the rate is kept by
     */
    public Throttle(long bytesPerSecond, NanoClock clock) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("a copy rate must be positive, was " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.clock = clock;
        this.allowedAtNs = clock.nanoTime();
    }

    /** {@code source}, read no faster than the rate left by every other copy. */
    public InputStream wrap(InputStream source) {
        return new FilterInputStream(source) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    take(1);
                }
                return b;
            }

            @Override
            public int read(byte[] into, int offset, int length) throws IOException {
                int n = super.read(into, offset, length);
                if (n > 0) {
                    take(n);
                }
                return n;
            }
        };
    }

    /**
     * Accounts for {@code bytes} read and waits until they fit the rate.
     *
     * @throws InterruptedIOException if the thread is interrupted while it waits
     */
    public void take(long bytes) throws InterruptedIOException {
        long until = reserve(bytes);
        for (long now = clock.nanoTime(); now < until; now = clock.nanoTime()) {
            LockSupport.parkNanos(until - now);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while a copy waited for its rate");
            }
        }
    }

    /** Books {@code bytes} and answers the time, on the clock, from which the caller may have them. */
    synchronized long reserve(long bytes) {
        long now = clock.nanoTime();
        allowedAtNs = Math.max(allowedAtNs, now - BURST_NS) + TimeUnit.SECONDS.toNanos(bytes) / bytesPerSecond;
        return allowedAtNs;
    }
}

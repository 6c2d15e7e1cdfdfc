package io.rondo.client;

import io.rondo.client.protocol.Report;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A stream's REPORTs, sent from a daemon thread of their own every report interval while the stream
 * is open, so the server hears from a client even while the application is not reading (paused,
 * say). What they say is set from the reading thread; a failed send is kept for the reader's
 * message when the connection is then found closed.
 */
final class StreamReports {
    private final Duration interval;
    private ScheduledExecutorService reporter;
    private volatile long bufferedNs;
    private volatile long bufferedBytes;
    /** DATA bytes received on the current connection's stream, as its REPORTs tell its server. */
    private volatile long streamBytes;
    private volatile IOException failure;

    StreamReports(Duration interval) {
        this.interval = interval;
    }

    /** Starts reporting a newly accepted stream on {@code connection}: no DATA received on it yet. */
    void start(StreamConnection connection) {
        streamBytes = 0;
        reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rondo-stream-report-" + connection.peer);
            t.setDaemon(true);
            return t;
        });
        long periodNs = interval.toNanos();
        reporter.scheduleAtFixedRate(() -> send(connection), periodNs, periodNs, TimeUnit.NANOSECONDS);
    }

    private void send(StreamConnection connection) {
        try {
            connection.send(new Report(bufferedNs, bufferedBytes, streamBytes));
        } catch (IOException e) {
            failure = e;
            reporter.shutdown();
        }
    }

    void stop() {
        if (reporter != null) {
            reporter.shutdownNow();
        }
    }

    void bufferLevel(long ns, long bytes) {
        if (ns < 0 || bytes < 0) {
            throw new IllegalArgumentException("buffer level must not be negative");
        }
        bufferedNs = ns;
        bufferedBytes = bytes;
    }

    void received(long bytes) {
        streamBytes += bytes;
    }

    /** Why the connection may have closed, as a failed send found: null if none failed. */
    String failure() {
        IOException why = failure;
        return why == null ? null : why.getMessage();
    }

    void failed(IOException e) {
        failure = e;
    }
}

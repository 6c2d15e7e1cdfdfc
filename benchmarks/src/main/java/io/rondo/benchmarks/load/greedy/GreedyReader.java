package io.rondo.benchmarks.load.greedy;

import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.load.paced.DelayLog;
import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * papers/002's greedy best-effort reader: whole-file GETs of large discrete objects, one after the
 * other, as fast as the server gives them, each reader on files of its own. It is the load that
 * the paced streams must be protected from, and its own service times (request sent to last byte)
 * are Figure 14's third curve. {@link #stop()} cuts a request under way short; that request is
 * not counted.
 */
public final class GreedyReader implements Runnable {

    private final HttpConnection connection;
    private final List<String> paths;
    private final LongSupplier nanoClock;
    private final long endNs;
    private final DelayLog log;
    private volatile boolean stopped;

    /**
     * @param connection the server
     * @param paths the files this reader fetches, in turn
     * @param nanoClock the run's clock
     * @param endNs when it starts no more requests
     * @param log where service times and bytes go
     */
    public GreedyReader(HttpConnection connection, List<String> paths, LongSupplier nanoClock, long endNs,
                        DelayLog log) {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("a greedy reader needs a file to read");
        }
        this.connection = connection;
        this.paths = List.copyOf(paths);
        this.nanoClock = nanoClock;
        this.endNs = endNs;
        this.log = log;
    }

    @Override
    public void run() {
        for (int i = 0; !stopped && nanoClock.getAsLong() - endNs < 0; i++) {
            String path = paths.get(i % paths.size());
            long startNs = nanoClock.getAsLong();
            try {
                long bytes = connection.get(path, 0, -1);
                log.record(nanoClock.getAsLong() - startNs, bytes);
            } catch (IOException e) {
                if (!stopped) {
                    log.failed("GET " + path + ": " + e.getMessage());
                }
                return;
            }
        }
    }

    /** Stops at once, from any thread. */
    public void stop() {
        stopped = true;
        connection.close();
    }
}

package io.rondo.systemtest;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a running server's Prometheus metrics from its admin port ({@code GET /metrics}, with the
 * admin token) every half second on a thread of its own, and keeps the peak of the JVM's heap in
 * use: the sum of {@code jvm_memory_used_bytes{area="heap"}} over the heap's pools.
 */
final class MetricsWatch implements AutoCloseable {

    private static final long PERIOD_MS = 500;

    private final URI metrics;
    private final String token;
    private final Thread thread;
    private final AtomicLong peakHeapBytes = new AtomicLong();
    private volatile boolean stopped;

    MetricsWatch(String adminUrl, String token) {
        this.metrics = URI.create(adminUrl + "/metrics");
        this.token = token;
        this.thread = new Thread(this::sample, "metrics-watch");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void sample() {
        while (!stopped) {
            try {
                peakHeapBytes.accumulateAndGet((long) sum(read(), "jvm_memory_used_bytes{area=\"heap\""), Math::max);
                Thread.sleep(PERIOD_MS);
            } catch (IOException e) {
                continue;
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The metrics page as it is now. */
    String read() throws IOException {
        HttpURLConnection http = (HttpURLConnection) metrics.toURL().openConnection();
        http.setRequestProperty("Authorization", "Bearer " + token);
        http.setConnectTimeout(5_000);
        http.setReadTimeout(10_000);
        try (InputStream in = http.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The sum of the samples whose line starts with {@code prefix} (a name and the start of its labels). */
    static double sum(String page, String prefix) {
        double total = 0;
        for (String line : page.split("\n")) {
            if (line.startsWith(prefix)) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** The most heap in use seen so far, in bytes. */
    long peakHeapBytes() {
        return peakHeapBytes.get();
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

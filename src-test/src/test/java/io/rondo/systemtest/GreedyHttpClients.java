package io.rondo.systemtest;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP clients that take all they can: each on its own thread GETs one object whole, as fast as it
 * can read, and again, until the run ends. Every request must be answered 2xx with the whole
 * object, or refused 503 with a {@code Retry-After} in seconds (then the client waits as told, else
 * a second); a request that errs otherwise, or a read that waits longer than
 * {@link #STALL_LIMIT_MS}, is a problem.
 */
final class GreedyHttpClients {

    /** A read that gets no byte for this long is a hung request. */
    static final int STALL_LIMIT_MS = 15_000;

    private static final int MAX_PROBLEMS = 20;

    private final List<Thread> threads = new ArrayList<>();
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean stopped;

    final AtomicLong answered = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong refusedWithoutRetryAfter = new AtomicLong();
    final AtomicLong other = new AtomicLong();
    final AtomicLong cutByTheEnd = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong slowestFirstByteMs = new AtomicLong();

    /** Starts {@code count} clients that fetch {@code url}, {@code size} bytes, until {@code stopAtNs}. */
    void start(int count, String url, long size, long stopAtNs) {
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> fetchUntil(URI.create(url), size, stopAtNs), "http-" + threads.size());
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    private void fetchUntil(URI url, long size, long stopAtNs) {
        byte[] chunk = new byte[64 * 1024];
        while (!stopped && System.nanoTime() - stopAtNs < 0) {
            long startNs = System.nanoTime();
            HttpURLConnection http = null;
            try {
                http = (HttpURLConnection) url.toURL().openConnection();
                http.setConnectTimeout(5_000);
                http.setReadTimeout(STALL_LIMIT_MS);
                int status = http.getResponseCode();
                slowestFirstByteMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs),
                    Math::max);
                if (status == 503) {
                    refused(http);
                    continue;
                }
                if (status / 100 != 2) {
                    other.incrementAndGet();
                    problem("GET " + url.getPath() + " was answered " + status);
                    continue;
                }
                long read = 0;
                try (InputStream in = http.getInputStream()) {
                    for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                        read += n;
                        bytes.addAndGet(n);
                        if (stopped || System.nanoTime() - stopAtNs >= 0) {
                            cutByTheEnd.incrementAndGet();
                            http.disconnect();
                            return;
                        }
                    }
                }
                if (read != size) {
                    other.incrementAndGet();
                    problem("GET " + url.getPath() + " carried " + read + " of " + size + " bytes");
                } else {
                    answered.incrementAndGet();
                }
            } catch (SocketTimeoutException e) {
                other.incrementAndGet();
                problem("GET " + url.getPath() + " hung: no byte for " + STALL_LIMIT_MS + " ms");
            } catch (IOException e) {
                other.incrementAndGet();
                problem("GET " + url.getPath() + " failed: " + e);
            }
        }
    }

    /** A 503 must say when to come back; the client waits that long (at most 5 s, the run's end). */
    private void refused(HttpURLConnection http) throws IOException {
        refused.incrementAndGet();
        String retryAfter = http.getHeaderField("Retry-After");
        try (InputStream body = http.getErrorStream()) {
            if (body != null) {
                body.readAllBytes();
            }
        }
        int seconds = 1;
        try {
            seconds = Integer.parseInt(retryAfter == null ? "" : retryAfter.strip());
            if (seconds <= 0) {
                refusedWithoutRetryAfter.incrementAndGet();
            }
        } catch (NumberFormatException e) {
            refusedWithoutRetryAfter.incrementAndGet();
        }
        try {
            Thread.sleep(TimeUnit.SECONDS.toMillis(Math.max(1, Math.min(5, seconds))));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The figures: answered, refused, other, cut by the run's end, bytes read, slowest first byte. */
    String summary() {
        return String.format(java.util.Locale.ROOT, "answered %d, refused 503 %d (without Retry-After %d), other %d, "
                + "cut by the run's end %d, %.1f MiB read, slowest first byte %d ms", answered.get(), refused.get(),
            refusedWithoutRetryAfter.get(), other.get(), cutByTheEnd.get(), bytes.get() / 1048576.0,
            slowestFirstByteMs.get());
    }

    private void problem(String what) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(what);
        }
    }

    /** What went against the promises, at most 20 lines. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    /** Ends the run: every client stops, and this returns once they have. */
    void stop() throws InterruptedException {
        stopped = true;
        for (Thread thread : threads) {
            thread.join(STALL_LIMIT_MS + 5_000L);
        }
    }
}

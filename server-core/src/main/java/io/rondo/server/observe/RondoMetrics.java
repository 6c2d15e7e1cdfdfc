package io.rondo.server.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyEventExecutorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * Rondo's metrics, for Prometheus ({@code GET /metrics} on the admin port): the guarantees
 * themselves (rounds, slack, deadline misses, D-response against its bound, admission decisions
 * by reason) beside requests, bytes, streams, the cache and IO errors, and the JVM's own. Every
 * name is {@code rondo_...}; counters end in {@code _total}, times in {@code _seconds}; labels
 * are the disk, the port, the route and the status class, never a session or an address.
 * docs/metrics.md lists them all.
 *
 * <p>Meters are Micrometer's: counters and timers update lock-free on the thread that counts (a
 * disk's executor, an event loop), and the registry reads them when scraped.
 */
public final class RondoMetrics {

    /** The request-time buckets of the HTTP histograms (service level objectives), in seconds. */
    private static final Duration[] HTTP_BUCKETS = durations(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
        0.5, 1, 2.5, 5, 10);

    private final PrometheusMeterRegistry registry;
    private final Map<String, Timer> httpTimers = new ConcurrentHashMap<>();

    /** A registry with the JVM's binders. */
    public RondoMetrics() {
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** The Prometheus text (or OpenMetrics, if {@code accept} asks for it) of every meter. */
    public String scrape(String accept) {
        return registry.scrape(accept == null ? "text/plain" : accept);
    }

    /** The content type {@link #scrape} answers {@code accept} with. */
    public static String contentType(String accept) {
        return accept != null && accept.contains("application/openmetrics-text")
            ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
            : "text/plain; version=0.0.4; charset=utf-8";
    }

    /** One request answered on a port: its time, by route, method and status class. */
    public void httpRequest(String port, String route, String method, int status, long nanos) {
        httpTimer(port, route, method, status).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * The timer of requests answered on a port by route, method and status class, for a caller
     * that records many and keeps the timer it last used.
     */
    public Timer httpTimer(String port, String route, String method, int status) {
        String statusClass = (status / 100) + "xx";
        String key = port + ' ' + route + ' ' + method + ' ' + statusClass;
        Timer timer = httpTimers.get(key);
        if (timer == null) {
            timer = httpTimers.computeIfAbsent(key, k -> Timer.builder("rondo.http.requests")
                .description("Requests answered, from the request's head to the response's head or end")
                .tags("port", port, "route", route, "method", method, "status", statusClass)
                .serviceLevelObjectives(HTTP_BUCKETS)
                .register(registry));
        }
        return timer;
    }

    /** The counter of bytes the HTTP port sends: heads and bodies. */
    public Counter httpSentBytes() {
        return Counter.builder("rondo.http.sent").baseUnit("bytes").description("Bytes the HTTP port sent")
            .register(registry);
    }

    /** An admission decision, by result ({@code accepted}, {@code rejected}) and reason. */
    public void admission(String result, String reason) {
        Counter.builder("rondo.admission.decisions").description("Streams judged by admission control")
            .tags("result", result, "reason", reason == null ? "none" : reason).register(registry).increment();
    }

    /** A stream sent to another node by REDIRECT, by reason ({@code not-here}, {@code no-room}). */
    public void redirect(String reason) {
        Counter.builder("rondo.stream.redirects").description("Streams sent to another node of the cluster")
            .tags("reason", reason).register(registry).increment();
    }

    /** A gauge read from {@code source} on each scrape. */
    public <T> void gauge(String name, String description, Tags tags, T source, ToDoubleFunction<T> value) {
        Gauge.builder(name, source, value).description(description).tags(tags).register(registry);
    }

    /** A counter read from {@code source} on each scrape: it only ever grows. */
    public <T> void functionCounter(String name, String description, Tags tags, T source, ToDoubleFunction<T> count) {
        FunctionCounter.builder(name, source, count).description(description).tags(tags).register(registry);
    }

    /**
     * Binds a disk's rounds and D-responses: the round's duration and its C-requests' service time
     * with a bucket at the round length, overruns and deadline misses, and the D-response time with
     * a bucket at the bound.
     */
    public void bindDisk(DiskWatch watch, long roundNs, long boundNs) {
        Tags disk = Tags.of("disk", watch.disk());
        Duration round = Duration.ofNanos(roundNs);
        Duration[] roundBuckets = durations(roundNs / 1e9 * 0.25, roundNs / 1e9 * 0.5, roundNs / 1e9 * 0.75,
            roundNs / 1e9 * 0.9, roundNs / 1e9, roundNs / 1e9 * 1.1, roundNs / 1e9 * 1.5, roundNs / 1e9 * 2);
        Timer duration = Timer.builder("rondo.round.duration").tags(disk).serviceLevelObjectives(roundBuckets)
            .description("From a round's start until its last C-request was read; above the round length "
                + "(" + round.toMillis() + " ms), a stream missed its deadline").register(registry);
        Timer busy = Timer.builder("rondo.round.continuous.busy").tags(disk).serviceLevelObjectives(roundBuckets)
            .description("The service time of a round's C-requests; the round's slack is the round length minus "
                + "this").register(registry);
        Counter overruns = Counter.builder("rondo.round.overruns").tags(disk)
            .description("Rounds in which a C-request was read after its deadline or dropped").register(registry);
        Counter misses = Counter.builder("rondo.deadline.misses").tags(disk)
            .description("C-requests read after their deadline or dropped").register(registry);
        Timer response = Timer.builder("rondo.discrete.response").tags(disk)
            .serviceLevelObjectives(withBound(boundNs))
            .description("D-requests' response time, arrival to read, with a bucket at the bound")
            .register(registry);
        Counter overBound = Counter.builder("rondo.discrete.over.bound").tags(disk)
            .description("D-requests answered after the D-response bound").register(registry);
        functionCounter("rondo.rounds", "Rounds ended", disk, watch, DiskWatch::rounds);
        gauge("rondo.round.slack.seconds", "The last round's slack: the round length minus its C-requests' "
            + "service time (papers/000 Figure 2)", disk, watch, w -> {
                var last = w.lastRounds();
                return last.isEmpty() ? Double.NaN : last.get(last.size() - 1).slackMs() / 1e3;
            });
        gauge("rondo.discrete.response.bound.seconds", "The D-response bound (discrete.responseBound)", disk, watch,
            w -> w.boundNs() / 1e9);
        watch.bind(new DiskWatch.Meters(duration, busy, overruns, misses, response, overBound));
    }

    /**
     * Binds the HTTP port's hot-object cache (hits, misses, bytes served from memory, bytes kept, its budget),
     * its event loops and Netty's buffer allocator.
     */
    public void bindHttp(CacheCounters hot, io.netty.util.concurrent.EventExecutorGroup loops) {
        functionCounter("rondo.cache.hits", "Requests answered from the hot-object cache", Tags.empty(), hot,
            CacheCounters::hits);
        functionCounter("rondo.cache.misses", "Requests for a cacheable object that was not in memory", Tags.empty(),
            hot, CacheCounters::misses);
        functionCounter("rondo.cache.served.bytes", "Body bytes sent from the hot-object cache", Tags.empty(), hot,
            CacheCounters::bytesServedFromMemory);
        gauge("rondo.cache.bytes", "Bytes the hot-object cache holds", Tags.empty(), hot,
            CacheCounters::cachedBytes);
        gauge("rondo.cache.budget.bytes", "The most bytes the hot-object cache may hold (http.hotObjectsTotal)",
            Tags.empty(), hot, CacheCounters::maxTotalBytes);
        hot.bindTo(registry);
        new NettyEventExecutorMetrics(loops).bindTo(registry);
        new NettyAllocatorMetrics(PooledByteBufAllocator.DEFAULT).bindTo(registry);
    }

    private static Duration[] withBound(long boundNs) {
        Duration[] base = durations(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5);
        Duration[] all = Arrays.copyOf(base, base.length + 1);
        all[base.length] = Duration.ofNanos(boundNs);
        return all;
    }

    private static Duration[] durations(double... seconds) {
        return Arrays.stream(seconds).mapToObj(s -> Duration.ofNanos((long) (s * 1e9))).toArray(Duration[]::new);
    }
}

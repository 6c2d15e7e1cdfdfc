package io.rondo.benchmarks.preset.discrete;

import io.rondo.benchmarks.load.http.ClosedLoop;
import io.rondo.benchmarks.load.http.HttpLoad;
import io.rondo.benchmarks.load.http.LoadStep;
import io.rondo.benchmarks.load.stream.LoadResults;
import io.rondo.benchmarks.load.stream.LoadRun;
import io.rondo.benchmarks.load.stream.LoadSettings;
import io.rondo.benchmarks.load.stream.LoadSummary;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.client.StreamUrl;
import io.rondo.client.protocol.ClientProfile;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The measurements of a discrete-vs-nginx run, each against one server: its warm-up, a closed-loop
 * run of JMH in a JVM of its own, a step of open-model load, and Rondo measured again while
 * streams play. Each says what it measured on the progress line.
 */
final class DiscreteSteps {

    private final DiscreteSettings settings;
    private final HttpLoad load;
    private final Path work;
    private final Path pathsFile;
    private final PrintWriter progress;
    private final NanoClock clock;

    /**
     * @param load the open and closed HTTP load, on the run's event loops
     * @param work where the JMH runs' logs go
     * @param pathsFile the file set's URL paths, one a line, for JMH's load
     * @param progress where a line per step goes
     * @param clock the clock the streams are played on
     */
    DiscreteSteps(DiscreteSettings settings, HttpLoad load, Path work, Path pathsFile, PrintWriter progress,
                  NanoClock clock) {
        this.settings = settings;
        this.load = load;
        this.work = work;
        this.pathsFile = pathsFile;
        this.progress = progress;
        this.clock = clock;
    }

    /**
     * Loads a server, unmeasured, until its JIT (Rondo's) or its caches (both) have settled, so that
     * the first measured step is not a cold start's.
     */
    void warmUp(InetSocketAddress server, String label) throws InterruptedException, IOException {
        progress.printf(Locale.ROOT, "bench: warming %s up for %.0f s%n", label, settings.serverWarmupNs() / 1e9);
        progress.flush();
        HttpLoad.Step step = new HttpLoad.Step(server, 0, 32, 0, settings.serverWarmupNs(), settings.timeoutNs(),
            settings.seed());
        try {
            load.closed(step).get();
        } catch (ExecutionException e) {
            throw new IOException("warming " + label + " up failed: " + e.getCause(), e.getCause());
        }
    }


    /**
     * Measures Rondo's closed-loop throughput again while {@code settings.streams()} streams of the
     * clip at {@code url} play, and what the streams saw.
     */
    void withStreams(InetSocketAddress http, String url, DiscreteReport report)
        throws InterruptedException, IOException {
        long rampNs = settings.streamRampNs();
        long playNs = TimeUnit.SECONDS.toNanos(settings.clipSeconds()) - TimeUnit.SECONDS.toNanos(5);
        StreamUrl target;
        try {
            target = StreamUrl.parse(url);
        } catch (IllegalArgumentException e) {
            throw new IOException("--stream-url: " + e.getMessage(), e);
        }
        LoadSettings streamSettings = new LoadSettings(target.host(), target.port(), target.objectName(),
            settings.streams(), rampNs, playNs,
            new ClientProfile(4L << 20, 16L << 20), false, 1);
        LoadRun streamRun = new LoadRun(streamSettings, clock::nanoTime, null);
        AtomicReference<LoadResults> streamed = new AtomicReference<>();
        AtomicReference<Exception> failed = new AtomicReference<>();
        Thread players = new Thread(() -> {
            try {
                streamed.set(streamRun.run());
            } catch (InterruptedException | RuntimeException e) {
                failed.set(e);
            }
        }, "rondo-bench-streams");
        players.setDaemon(true);
        progress.printf(Locale.ROOT, "bench: opening %d streams of %s over %.0f s%n", settings.streams(), url,
            rampNs / 1e9);
        progress.flush();
        players.start();
        TimeUnit.NANOSECONDS.sleep(rampNs + TimeUnit.SECONDS.toNanos(2));
        int connections = DiscreteSettings.connections(Nginx.Variant.SENDFILE);
        for (int repeat = 0; repeat < settings.repeats(); repeat++) {
            report.withStreams(jmh(http, "rondo+" + settings.streams() + " streams", connections));
        }
        streamRun.stop();
        players.join(TimeUnit.SECONDS.toMillis(30));
        if (failed.get() != null) {
            throw new IOException("the stream clients failed: " + failed.get().getMessage(), failed.get());
        }
        LoadResults results = streamed.get();
        if (results == null) {
            throw new IOException("the stream clients did not stop within 30 s");
        }
        report.streams(LoadSummary.of(streamSettings, results));
    }

    /** The closed-loop saturation throughput of {@code server}, measured by JMH in a JVM of its own. */
    ClosedLoop jmh(InetSocketAddress server, String label, int connections) throws IOException {
        Path log = work.resolve("jmh-" + label.replaceAll("[^A-Za-z0-9+-]", "_") + ".log");
        ClosedLoop result = ClosedLoop.measure("http://" + server.getHostString() + ":" + server.getPort() + "/",
            pathsFile, connections, settings.warmupNs(), settings.measureNs(), settings.iterations(), log);
        progress.printf(Locale.ROOT, "bench: %-24s closed c%-3d (JMH)  %8.0f req/s +- %.0f  iterations %s%n", label,
            connections, result.perSecond(), result.error(), result.iterations().stream()
                .map(value -> String.format(Locale.ROOT, "%.0f", value)).toList());
        progress.flush();
        return result;
    }

    /** One step of open-model load at {@code rate} (or closed-loop at 0), its seed the run's plus {@code salt}. */
    LoadStep step(InetSocketAddress server, double rate, int connections, int salt)
        throws InterruptedException, IOException {
        HttpLoad.Step step = new HttpLoad.Step(server, rate, connections, settings.warmupNs(), settings.measureNs(),
            settings.timeoutNs(), settings.seed() + salt);
        try {
            return (rate > 0 ? load.open(step) : load.closed(step)).get();
        } catch (ExecutionException e) {
            throw new IOException("a load step failed: " + e.getCause(), e.getCause());
        }
    }

    /** Says what a step measured, on the progress line. */
    void log(Nginx.Variant variant, String server, LoadStep step) {
        progress.printf(Locale.ROOT, "bench: %-15s %-22s %-16s %8.0f req/s  p50 %7.2f ms  p99 %8.2f ms  max %8.1f ms"
                + "%s%n", variant.label().substring("nginx-".length()), server,
            Double.isNaN(step.offeredPerSecond()) ? "closed c" + step.connections()
                : String.format(Locale.ROOT, "open %.0f/s", step.offeredPerSecond()),
            step.achievedPerSecond(), step.latencyMs(50), step.latencyMs(99), step.maxMs(),
            step.errors() + step.timeouts() > 0
                ? "  errors " + step.errors() + ", timeouts " + step.timeouts() : "");
        progress.flush();
    }
}

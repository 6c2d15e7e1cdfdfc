package io.rondo.benchmarks.preset.discrete;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.rondo.benchmarks.load.http.ClosedLoop;
import io.rondo.benchmarks.load.http.HttpLoad;
import io.rondo.benchmarks.load.http.LoadStep;
import io.rondo.benchmarks.load.stream.DurationOption;
import io.rondo.benchmarks.rig.Clip;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Folders;
import io.rondo.benchmarks.rig.Library;
import io.rondo.benchmarks.rig.Nginx;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.benchmarks.rig.RunningServer;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The discrete workload, Rondo beside nginx in one run: a seeded file set (sizes ~ Normal(50 kB,
 * 25 kB)) served by {@code rondo serve} on this machine's disk and by nginx in both variants, each
 * variant at its own concurrency (sendfile at 32 connections, directio at 8), measured
 * alternately: the closed-loop saturation throughput (as wrk measures, run by JMH: {@link
 * HttpGetBenchmark}), then an open-model sweep
 * of Poisson arrivals at fractions of nginx's throughput, latency from each request's intended
 * start. Then the same load on Rondo while N streams of the clip play, to show the discrete
 * throughput it keeps while it holds the streams' deadlines.
 */
@Command(name = "discrete-vs-nginx",
    description = {
        "Discrete HTTP requests, Rondo beside nginx (sendfile and directio+aio variants) on the same files in one "
            + "run: saturation throughput (closed loop, as wrk, measured by JMH), an open-model rate sweep with "
            + "latency from each "
            + "request's intended start (HdrHistogram), then Rondo again while N streams of 2 Mbit/s play.",
        "Writes DIR/discrete-vs-nginx.json, DIR/latency-cdf.png, DIR/throughput.png and DIR/summary.md, and "
            + "prints the side-by-side table with the ratios."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
public final class DiscretePreset implements Callable<Integer> {

    /** The open sweep's rates, as fractions of nginx's saturation throughput in the same variant. */
    static final double[] SWEEP = {0.25, 0.5, 0.75, 0.9, 1.0, 1.1};
    static final double[] QUICK_SWEEP = {0.5, 1.0};
    /** The open rate at which the p99s are compared: one nginx holds with room to spare. */
    static final double COMPARED_FRACTION = 0.75;
    /** The label of the server of {@code --baseline-jar}. */
    static final String BASELINE = "rondo-baseline";

    @Spec
    private CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results/discrete-vs-nginx",
        description = "Where the JSON, charts and summary go (default: ${DEFAULT-VALUE}).")
    private Path outDir;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "bench-work",
        description = "Where the file set, Rondo's library, the clip and nginx's files are made and kept between "
            + "runs (default: ${DEFAULT-VALUE}).")
    private Path workDir;

    @Option(names = "--quick", description = "A smoke run: fewer files, streams and rates, 2 s steps.")
    private boolean quick;

    @Option(names = "--files", paramLabel = "N", description = "Files in the set (default: 300; quick: 60).")
    private Integer files;

    @Option(names = "--mean", paramLabel = "BYTES", defaultValue = "50000",
        description = "The files' mean size (default: ${DEFAULT-VALUE}).")
    private long meanBytes;

    @Option(names = "--sd", paramLabel = "BYTES", defaultValue = "25000",
        description = "The files' standard deviation (default: ${DEFAULT-VALUE}).")
    private long sdBytes;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "20261123",
        description = "The seed of the file set and the arrivals (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--warmup", paramLabel = "DURATION", description = "Unmeasured load before each step "
        + "(default: 3s; quick: 1s).")
    private String warmup;

    @Option(names = "--measure", paramLabel = "DURATION", description = "Each step's measured time "
        + "(default: 10s; quick: 2s).")
    private String measure;

    @Option(names = "--repeats", paramLabel = "N", description = "Closed-loop JMH runs per server and variant, "
        + "alternating (default: 2; quick: 1).")
    private Integer repeats;

    @Option(names = "--iterations", paramLabel = "N", description = "Measured JMH iterations of --measure each in "
        + "a closed-loop run (default: 3; quick: 1).")
    private Integer iterations;

    @Option(names = "--streams", paramLabel = "N", description = "Streams playing during the last phase; 0 skips "
        + "it (default: 100; quick: 10).")
    private Integer streams;

    @Option(names = "--stream-bitrate", paramLabel = "BITS", defaultValue = "2000000",
        description = "The clip's bit rate, bits a second (default: ${DEFAULT-VALUE}).")
    private long streamBitrate;

    @Option(names = "--variants", paramLabel = "LIST", split = ",", defaultValue = "sendfile,directio",
        description = "nginx's variants (default: ${DEFAULT-VALUE}).")
    private List<String> variants;

    @Option(names = "--client-threads", paramLabel = "N", defaultValue = "2",
        description = "The load's event loops (default: ${DEFAULT-VALUE}).")
    private int clientThreads;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s",
        description = "A request not answered within this long counts as timed out (default: ${DEFAULT-VALUE}).")
    private String timeout;

    @Option(names = "--rondo", paramLabel = "URL",
        description = "Measure the Rondo already serving at URL (http://HOST:PORT/) instead of starting one. It "
            + "must serve the file set at /f000.bin and on: the bench makes the set in --work and says how to "
            + "ingest it.")
    private URI rondoUrl;

    @Option(names = "--stream-url", paramLabel = "URL",
        description = "With --rondo: the clip the streams play, rondo://HOST:PORT/NAME; without it, the streamed "
            + "phase is skipped.")
    private String streamUrl;

    @Option(names = "--rondo-java-opts", paramLabel = "FLAGS", defaultValue = "",
        description = "Extra JVM flags for the Rondo server, split on spaces.")
    private String rondoJavaOpts;

    @Option(names = "--baseline-jar", paramLabel = "JAR",
        description = "Another build's rondo.jar (a copy of it made before a change), served as 'rondo-baseline' "
            + "from a copy of the same library and measured beside Rondo and nginx in every step, alternating.")
    private Path baselineJar;

    /** Runs it from the command line; see {@code --help}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new DiscretePreset()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        DiscreteSettings settings = settings();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = spec.commandLine().getErr();
        DiscreteReport report = run(settings, progress, SystemClocks.nanoClock());
        Files.createDirectories(outDir);
        report.write(outDir);
        out.print(report.summary());
        out.println("Results: " + outDir.resolve(DiscreteReport.JSON) + ", charts " + outDir.resolve(
            DiscreteReport.CDF_CHART) + " and " + outDir.resolve(DiscreteReport.THROUGHPUT_CHART));
        out.flush();
        return 0;
    }

    private DiscreteSettings settings() {
        try {
            List<Nginx.Variant> chosen = variants.stream().map(Nginx.Variant::parse).distinct().toList();
            DiscreteSettings settings = new DiscreteSettings(files != null ? files : quick ? 60 : 300, meanBytes,
                sdBytes, seed,
                DurationOption.parseNs(warmup != null ? warmup : quick ? "1s" : "3s", "--warmup"),
                DurationOption.parseNs(measure != null ? measure : quick ? "2s" : "10s", "--measure"),
                repeats != null ? repeats : quick ? 1 : 2, iterations != null ? iterations : quick ? 1 : 3,
                streams != null ? streams : quick ? 10 : 100,
                streamBitrate, chosen, clientThreads, DurationOption.parseNs(timeout, "--timeout"),
                quick ? QUICK_SWEEP : SWEEP, TimeUnit.SECONDS.toNanos(quick ? 3 : 30),
                rondoJavaOpts.isBlank() ? List.of() : List.of(rondoJavaOpts.trim().split("\\s+")));
            if (settings.files() < 1 || settings.repeats() < 1 || settings.iterations() < 1 || settings.streams() < 0
                || clientThreads < 1
                || settings.measureNs() <= 0 || meanBytes < 1 || sdBytes < 0 || streamBitrate < 10_000) {
                throw new IllegalArgumentException("--files, --repeats, --iterations, --client-threads and --measure "
                    + "must be "
                    + "positive, --streams and --sd not negative, --mean positive, --stream-bitrate at least 10000");
            }
            return settings;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * Runs the whole comparison.
     *
     * @param progress where a line per step goes
     * @param clock the clock the servers' starts, the load and the streams are timed on
     */
    DiscreteReport run(DiscreteSettings settings, PrintWriter progress, NanoClock clock)
        throws IOException, InterruptedException {
        if (!Nginx.available()) {
            throw new IOException("nginx is not installed at " + Nginx.binary() + " (apt-get install nginx-light)");
        }
        Path work = workDir.toAbsolutePath();
        progress.printf(Locale.ROOT, "bench: making %d files (mean %d B, sd %d B) in %s%n", settings.files(),
            settings.meanBytes(), settings.sdBytes(), work);
        progress.flush();
        FileSet set = FileSet.make(work.resolve(String.format(Locale.ROOT, "files-%d-%d-%d-%d", settings.files(),
            settings.meanBytes(), settings.sdBytes(), settings.seed())), settings.files(), settings.meanBytes(),
            settings.sdBytes(), settings.seed());
        List<String> paths = set.names().stream().map(name -> "/" + name).toList();
        Path pathsFile = ClosedLoop.writePaths(paths,
            set.folder().resolveSibling(set.folder().getFileName() + "-paths.txt"));
        DiscreteReport report = new DiscreteReport(settings, set);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(settings.clientThreads(),
            new DefaultThreadFactory("rondo-bench-load", true), NioIoHandler.newFactory());
        List<AutoCloseable> servers = new ArrayList<>();
        try {
            InetSocketAddress rondoAddress;
            String clipUrl = null;
            ServeProcess rondo = null;
            InetSocketAddress baselineAddress = null;
            if (rondoUrl == null) {
                Path clip = settings.streams() > 0
                    ? Clip.make(work.resolve("clips"), settings.streamBitrate(), settings.clipSeconds()) : null;
                Path data = Library.prepare(work, set, clip, progress);
                if (baselineJar != null) {
                    Path copy = Folders.copyTree(data, work.resolve("rondo-baseline-data"));
                    progress.println("bench: starting rondo serve of " + baselineJar + " (rondo-baseline)");
                    progress.flush();
                    ServeProcess baseline = RondoCheckout.serve(baselineJar.toAbsolutePath(), copy, false,
                        settings.rondoJavaOptions(), work.resolve("rondo-baseline-serve.log"), clock);
                    servers.add(baseline);
                    baselineAddress = new InetSocketAddress(baseline.host(), baseline.httpPort());
                }
                progress.println("bench: starting rondo serve");
                progress.flush();
                rondo = RondoCheckout.serve(data, false, settings.rondoJavaOptions(), work.resolve("rondo-serve.log"),
                    clock);
                servers.add(rondo);
                rondoAddress = new InetSocketAddress(rondo.host(), rondo.httpPort());
                if (clip != null) {
                    clipUrl = "rondo://" + rondo.host() + ":" + rondo.streamPort() + "/" + clip.getFileName();
                }
            } else {
                rondoAddress = RunningServer.check(rondoUrl, set);
                clipUrl = streamUrl;
                if (settings.streams() > 0 && clipUrl == null) {
                    progress.println("bench: no --stream-url, so no streamed phase");
                }
            }
            DiscreteSteps steps = new DiscreteSteps(settings, new HttpLoad(group, paths, clock), work, pathsFile,
                progress, clock);
            List<Nginx> nginxes = new ArrayList<>();
            for (Nginx.Variant variant : settings.variants()) {
                Nginx nginx = Nginx.start(set.folder(), variant, work.resolve(variant.label()), clock);
                servers.add(nginx);
                nginxes.add(nginx);
            }
            steps.warmUp(rondoAddress, "rondo");
            if (baselineAddress != null) {
                steps.warmUp(baselineAddress, BASELINE);
            }
            for (Nginx nginx : nginxes) {
                steps.warmUp(nginx.address(), nginx.variant().label());
            }
            for (Nginx nginx : nginxes) {
                compare(settings, steps, rondoAddress, baselineAddress, nginx, report);
            }
            if (settings.streams() > 0 && clipUrl != null) {
                steps.withStreams(rondoAddress, clipUrl, report);
            }
            if (rondo != null) {
                report.serverLog(rondo.printed());
            }
        } finally {
            for (int i = servers.size() - 1; i >= 0; i--) {
                try {
                    servers.get(i).close();
                } catch (Exception e) {
                    progress.println("bench: stopping a server failed: " + e.getMessage());
                }
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        }
        return report;
    }

    /**
     * Rondo (and the baseline) beside one nginx variant: the closed-loop runs, alternating, then the
     * open sweep at fractions of nginx's best.
     */
    private static void compare(DiscreteSettings settings, DiscreteSteps steps, InetSocketAddress rondo,
                                InetSocketAddress baseline, Nginx nginx, DiscreteReport report)
        throws InterruptedException, IOException {
        Nginx.Variant variant = nginx.variant();
        int connections = DiscreteSettings.connections(variant);
        String rondoLabel = "rondo";
        String nginxLabel = variant.label();
        double nginxBest = 0;
        for (int repeat = 0; repeat < settings.repeats(); repeat++) {
            ClosedLoop r = steps.jmh(rondo, rondoLabel, connections);
            report.closed(variant, rondoLabel, r);
            if (baseline != null) {
                report.closed(variant, BASELINE, steps.jmh(baseline, BASELINE, connections));
            }
            ClosedLoop n = steps.jmh(nginx.address(), nginxLabel, connections);
            report.closed(variant, nginxLabel, n);
            nginxBest = Math.max(nginxBest, n.perSecond());
        }
        for (double fraction : settings.sweep()) {
            double rate = Math.max(1, fraction * nginxBest);
            LoadStep r = steps.step(rondo, rate, connections, 100);
            report.open(variant, rondoLabel, fraction, r);
            steps.log(variant, rondoLabel, r);
            if (baseline != null) {
                LoadStep b = steps.step(baseline, rate, connections, 100);
                report.open(variant, BASELINE, fraction, b);
                steps.log(variant, BASELINE, b);
            }
            LoadStep n = steps.step(nginx.address(), rate, connections, 100);
            report.open(variant, nginxLabel, fraction, n);
            steps.log(variant, nginxLabel, n);
        }
    }
}

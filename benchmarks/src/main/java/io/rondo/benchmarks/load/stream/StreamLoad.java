package io.rondo.benchmarks.load.stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.rondo.benchmarks.load.stream.LoadResults.Outcome;
import io.rondo.client.StreamUrl;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.ByteSizes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A load client of the stream protocol: many players in one JVM, each over its own TCP
 * connection, opening one object and measuring what a player would notice (papers/000 Section 3
 * measures the server's side of the same promise). It checks the target "default config on this
 * machine: at least 200 concurrent 2 Mbit/s streams admitted and no fragment late at the client":
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.rondo.benchmarks.load.stream.StreamLoad \
 *   rondo://127.0.0.1:8554/videos/clip.mp4 --streams 200 --ramp 10s --duration 60s --json out.json
 * </pre>
 * It measures and does not judge: it exits 0 whatever the figures say.
 */
@Command(name = "StreamLoad",
    description = {"Open N streams of one object over the stream protocol (TCP), spread evenly over --ramp, each "
        + "played for --duration as a player would: OPEN with the client profile, REPORT every second, the "
        + "buffer played at the media's rate. Then print what the players saw: streams admitted and rejected (by "
        + "reason), fragments late (last byte after the DATA's deadline, on the stream's clock that starts at "
        + "ACCEPT), lateness p50/p99/max, initial latency, the receive rate, and media seconds received per wall "
        + "second.",
        "",
        "  java -cp benchmarks/target/benchmarks.jar io.rondo.benchmarks.load.stream.StreamLoad \\",
        "    rondo://127.0.0.1:8554/videos/clip.mp4 \\",
        "    --streams 200 --ramp 10s --duration 60s --json out.json",
        ""},
    mixinStandardHelpOptions = true,
    version = "Rondo StreamLoad 0.1.0, stream protocol version 1",
    sortOptions = false,
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:The run ended and its figures were printed, whatever they show (late fragments and REJECTs included).",
        "1:The tool failed: no stream could connect to the server, the JSON could not be written, or an "
            + "unexpected failure.",
        "2:Bad usage: a bad URL or option."})
public final class StreamLoad implements Callable<Integer> {

    static final int EXIT_MEASURED = 0;
    static final int EXIT_FAILED = 1;

    /** How long Ctrl-C waits for the summary to be printed. */
    private static final long STOP_WAIT_S = 10;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "rondo://HOST:PORT/NAME: the server's stream port and an object"
        + " in its catalog.")
    private String url;

    @Option(names = "--streams", paramLabel = "N", defaultValue = "200",
        description = "How many streams (players) to open (default: ${DEFAULT-VALUE}).")
    private int streams;

    @Option(names = "--ramp", paramLabel = "DURATION", defaultValue = "10s",
        description = "Spread the OPENs evenly over this long (default: ${DEFAULT-VALUE}); 0 opens all at once.")
    private String ramp;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "60s",
        description = "How long each stream plays, from its OPEN, unless END comes first; then the player sends "
            + "CLOSE (default: ${DEFAULT-VALUE}). The run takes about --ramp plus this.")
    private String duration;

    @Option(names = "--rate", paramLabel = "BYTES", defaultValue = "4M",
        description = "The client profile's maximum receive rate, bytes per second, K/M/G powers of 1024 "
            + "(default: ${DEFAULT-VALUE}).")
    private String rate;

    @Option(names = "--buffer", paramLabel = "BYTES", defaultValue = "16M",
        description = "The client profile's buffer (default: ${DEFAULT-VALUE}); a player stops reading while its "
            + "buffer is full.")
    private String buffer;

    @Option(names = "--retry",
        description = "Retry a REJECT for a short resource (DISK_TIME, BUFFER_MEMORY, NETWORK) after its "
            + "retry-after, while the stream's --duration lasts. Off: a rejected stream stays rejected.")
    private boolean retry;

    @Option(names = "--reconnect", paramLabel = "N", defaultValue = "3",
        description = "How many times a player connects again, 250 ms apart and then twice as long each time, when "
            + "its connection is lost mid-stream (a node stopped or died), to OPEN at the fragment after its last; "
            + "0 never does (default: ${DEFAULT-VALUE}). The summary counts the reconnections and the longest gap. "
            + "Players always follow REDIRECT, at most 3 in a row.")
    private int reconnect;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
        description = "The client's event-loop threads (default: ${DEFAULT-VALUE}); the summary shows how late "
            + "they ran, to tell the client's delays from the server's.")
    private int threads;

    @Option(names = "--json", paramLabel = "FILE",
        description = "Also write the figures, and one entry per stream, to FILE as JSON.")
    private Path json;

    @Option(names = {"-q", "--quiet"}, description = "No progress lines on standard error.")
    private boolean quiet;

    /**
     * Runs the load client; see {@code --help}.
     *
     * @param args the URL and options
     */
    public static void main(String[] args) {
        // benchmarks.jar holds SLF4J's API with no binding, which would swallow Netty's warnings (a leak, say).
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        System.exit(new CommandLine(new StreamLoad()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        LoadSettings settings = settings();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadRun run = new LoadRun(settings, SystemClocks.nanoClock()::nanoTime, quiet ? null : System.err);
        run.reconnect(reconnect);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            run.stop();
            try {
                reported.await(STOP_WAIT_S, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rondo-load-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            LoadResults results = run.run();
            LoadSummary summary = LoadSummary.of(settings, results);
            out.print(summary.text());
            out.flush();
            int exit = EXIT_MEASURED;
            if (json != null) {
                try {
                    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(),
                        summary.json());
                    out.println("JSON: " + json);
                } catch (IOException e) {
                    err.println("StreamLoad: cannot write " + json + ": " + e.getMessage());
                    exit = EXIT_FAILED;
                }
            }
            if (results.openedSoFar() == 0 && results.streams().stream()
                .allMatch(s -> s.outcome() == Outcome.CONNECT_FAILED)) {
                err.println("StreamLoad: no stream could connect to " + settings.host() + ":" + settings.port()
                    + "; is the server's stream port right?");
                exit = EXIT_FAILED;
            }
            out.flush();
            err.flush();
            return exit;
        } finally {
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down (Ctrl-C): the hook is running and has been let go.
            }
        }
    }

    private LoadSettings settings() {
        try {
            if (reconnect < 0) {
                throw new IllegalArgumentException("--reconnect must be 0 or more, was " + reconnect);
            }
            StreamUrl target = StreamUrl.parse(url);
            ClientProfile profile = new ClientProfile(ByteSizes.parse(rate, "--rate"),
                ByteSizes.parse(buffer, "--buffer"));
            return new LoadSettings(target.host(), target.port(), target.objectName(), streams,
                DurationOption.parseNs(ramp, "--ramp"), DurationOption.parseNs(duration, "--duration"), profile, retry,
                threads);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}

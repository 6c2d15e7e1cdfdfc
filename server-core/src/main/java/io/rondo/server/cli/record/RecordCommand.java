package io.rondo.server.cli.record;

import io.rondo.client.Publisher;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.StreamUrl;
import io.rondo.client.protocol.Durable;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.cli.console.Progress;
import io.rondo.server.cli.console.ProgressLine;
import io.rondo.server.cli.console.ShutdownHook;
import io.rondo.server.config.RondoConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import static io.rondo.server.cli.record.RecordMessages.NAME;

/**
 * {@code rondo record}: publishes live media to a server, which records it in its disks' rounds
 * (docs/stream-protocol.md, *Publishing*). It reads what any encoder writes to a pipe, as the
 * papers' client proxy does (papers/000 Section 1), and sends it as it comes; the server answers
 * what is durable, which the progress line shows: what a crash of the server could no longer lose.
 */
@Command(name = "record",
    description = {"Record live media on a server: read fragmented MP4 or WebM from standard input (or -i FILE) and "
        + "publish it as the object NAME, which viewers can watch while it grows:",
        "  ffmpeg -i rtsp://camera/stream -c copy -f mp4 -movflags +frag_keyframe+empty_moov+default_base_moof - \\",
        "    | rondo record rondo://127.0.0.1:8554/cams/door.mp4",
        "",
        "The container is --container, else NAME's extension (.mp4, .m4v, .mov: fragmented MP4; .webm, .mkv: WebM), "
            + "else the input file's, else its first bytes. The token is --token, else $RONDO_PUBLISH_TOKEN, else the "
            + "publish token file rondo serve wrote at its first start (admin.publishTokenFile, else "
            + "<first storage root>/rondo/publish.token; --data DIR names the root).",
        "",
        "Standard error shows a progress line about once a second: the bytes sent, the rate, and what the server "
            + "says is durable (media time and fragments written and forced to its disk). At the end of the input "
            + "the recording is finished: the server writes its last round and says what is durable, then a summary "
            + "is printed."},
    mixinStandardHelpOptions = true,
    sortOptions = false,
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:The input ended and the server finished the recording (its last round is durable).",
        "1:The input failed mid-way; the recording was finished with what was sent.",
        "2:Bad usage: a bad URL or option, an input that cannot be read or is empty, a container that cannot be "
            + "told, or no token.",
        "3:The server refused the recording (REJECT): a token without the publish scope, a name taken, a container "
            + "it does not record, or no room; the reason is printed.",
        "4:The server could not be reached, ended the recording with ERROR (bad media, the rate exceeded, the disk "
            + "full, a write failed), or the connection broke or timed out; what was durable stays recorded.",
        "130:Interrupted (Ctrl-C): reading stopped and the recording was finished with what was sent."})
public final class RecordCommand implements Callable<Integer> {

    static final int EXIT_RECORDED = 0;
    static final int EXIT_INPUT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_REFUSED = 3;
    static final int EXIT_BROKEN = 4;
    static final int EXIT_INTERRUPTED = 130;

    /** How long the server may take to write the last round and answer END, after CLOSE. */
    static final Duration FINISH_TIMEOUT = Duration.ofSeconds(10);
    /** The progress line's redraws on a terminal: about once a second. */
    static final long PROGRESS_REDRAW_NS = 1_000_000_000L;
    /** Bytes read from the input at a time: MEDIA frames of the most a server takes by default, and a few. */
    private static final int READ_BYTES = 256 * 1024;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "rondo://HOST:PORT/NAME: the server's stream port and the name the "
        + "recording gets in its catalog.")
    private String url;

    @Option(names = {"-i", "--input"}, paramLabel = "FILE",
        description = "Read the media from FILE instead of standard input (- is standard input).")
    private String input;

    @Option(names = "--container", paramLabel = "mp4|webm",
        description = "The input's container: mp4 (fragmented, as ffmpeg -f mp4 -movflags "
            + "+frag_keyframe+empty_moov+default_base_moof writes it) or webm (as ffmpeg -f webm and MediaRecorder "
            + "write it). Default: told from NAME, the input file's name or the first bytes.")
    private String container;

    @Option(names = "--peak-rate", paramLabel = "RATE", defaultValue = "8M",
        description = "The most bits per second the input carries, as 8M, 4000k or 500000: the server admits the "
            + "recording at this rate and ends it if the input goes faster (default: ${DEFAULT-VALUE}).")
    private String peakRate;

    @Option(names = "--token", paramLabel = "TOKEN",
        description = "A token with the publish scope: the server's publish token, or its admin token "
            + "(default: $RONDO_PUBLISH_TOKEN, else the publish token file).")
    private String token;

    @Option(names = "--data", paramLabel = "DIR",
        description = "The server's data folder, where its rondo/publish.token is (default: the first storage root "
            + "of the configuration).")
    private Path data;

    @Option(names = "--config", paramLabel = "FILE",
        description = "The configuration file, for the token file's place (default: config/rondo.yaml).")
    private Path config;

    @Option(names = {"-q", "--quiet"},
        description = "No progress line and no summary on standard error; failures are still explained.")
    private boolean quiet;

    private final Map<String, String> env;
    private final InputStream stdin;
    private final LongSupplier nanoClock;
    private final BooleanSupplier stderrIsTerminal;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopping;

    /** The command as {@code rondo} runs it: the process's environment, standard input and clock. */
    public RecordCommand() {
        this(System.getenv(), System.in, SystemClocks.nanoClock()::nanoTime, Progress::stderrIsTerminal);
    }

    /**
     * @param env              the environment {@code RONDO_PUBLISH_TOKEN} is read from
     * @param stdin            standard input
     * @param nanoClock        the clock of the rate and the progress line
     * @param stderrIsTerminal whether to redraw the progress line in place rather than print log lines
     */
    RecordCommand(Map<String, String> env, InputStream stdin, LongSupplier nanoClock,
                  BooleanSupplier stderrIsTerminal) {
        this.env = env;
        this.stdin = stdin;
        this.nanoClock = nanoClock;
        this.stderrIsTerminal = stderrIsTerminal;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        StreamUrl target;
        long peak;
        PublishToken publishToken;
        RecordInput media;
        String declared;
        try {
            target = StreamUrl.parse(url);
            peak = BitRates.parse(peakRate, "--peak-rate");
            if (container != null) {
                RecordInput.checked(container);
            }
            publishToken = PublishToken.find(token, env, this::settings, data);
            media = RecordInput.open(input, stdin);
            declared = media.container(container, target.objectName());
        } catch (IllegalArgumentException e) {
            err.println(NAME + e.getMessage());
            err.flush();
            return EXIT_USAGE;
        }
        ShutdownHook hook = ShutdownHook.install("rondo-record-stop", this::stop);
        try (media) {
            ProgressLine progress = new ProgressLine(err, quiet, stderrIsTerminal.getAsBoolean(), PROGRESS_REDRAW_NS);
            return record(target, declared, peak, publishToken, media, progress);
        } finally {
            hook.close();
            finished.countDown();
        }
    }

    private RondoConfig settings() {
        return config == null ? RondoConfig.loadOrDefaults(RondoConfig.defaultFile()) : RondoConfig.load(config);
    }

    /**
     * Ctrl-C, as the shutdown hook runs it: reading stops at the next chunk, and the recording is
     * finished; waits for that at most the time the server has to finish.
     */
    void stop() {
        stopping = true;
        try {
            finished.await(FINISH_TIMEOUT.toNanos() + PROGRESS_REDRAW_NS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int record(StreamUrl target, String declared, long peak, PublishToken publishToken, RecordInput media,
                       ProgressLine progress) {
        String name = target.objectName();
        try (StreamClient client = connect(target, progress)) {
            if (client == null) {
                return EXIT_BROKEN;
            }
            Publisher publisher;
            try {
                publisher = client.publish(name, declared, peak, publishToken.token());
            } catch (StreamRejectedException e) {
                progress.fail(RecordMessages.refusal(name, e.reject(), publishToken.source()));
                return EXIT_REFUSED;
            }
            try (publisher) {
                return publish(publisher, name, media, progress, nanoClock.getAsLong());
            }
        } catch (IOException e) {
            progress.fail(RecordMessages.broken(e, 0, null));
            return EXIT_BROKEN;
        }
    }

    private StreamClient connect(StreamUrl target, ProgressLine progress) {
        try {
            return StreamClient.connect(target.host(), target.port());
        } catch (IOException e) {
            progress.fail(RecordMessages.cannotConnect(target.address(), e));
            return null;
        }
    }

    /** Sends the input until it ends, then finishes the recording; the exit code says how it went. */
    private int publish(Publisher publisher, String name, RecordInput media, ProgressLine progress, long acceptedNs) {
        String inputFailure = null;
        try {
            byte[] head = media.head();
            publisher.send(head, 0, head.length);
            byte[] buffer = new byte[READ_BYTES];
            while (!stopping) {
                int n;
                try {
                    n = media.read(buffer);
                } catch (UncheckedIOException e) {
                    inputFailure = e.getMessage();
                    break;
                }
                if (n < 0) {
                    break;
                }
                publisher.send(buffer, 0, n);
                long nowNs = nanoClock.getAsLong();
                progress.update(nowNs, () -> RecordMessages.progressLine(publisher.bytesSent(),
                    publisher.lastDurable(), nowNs - acceptedNs));
            }
            Durable last = publisher.finish(FINISH_TIMEOUT);
            long elapsedNs = nanoClock.getAsLong() - acceptedNs;
            if (inputFailure != null) {
                progress.fail(NAME + inputFailure);
                progress.fail(RecordMessages.summary("finished", name, publisher.bytesSent(), last, elapsedNs));
                return EXIT_INPUT_FAILED;
            }
            progress.end(RecordMessages.summary(stopping ? "interrupted; finished" : "recorded", name,
                publisher.bytesSent(), last, elapsedNs));
            return stopping ? EXIT_INTERRUPTED : EXIT_RECORDED;
        } catch (IOException e) {
            progress.fail(RecordMessages.broken(e, publisher.bytesSent(), publisher.lastDurable())
                + (inputFailure == null ? "" : " (and " + inputFailure + ")"));
            return EXIT_BROKEN;
        }
    }
}

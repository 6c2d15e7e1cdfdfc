package io.rondo.server.cli.play;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.Gap;
import io.rondo.client.Reconnect;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.StreamUrl;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Live;
import io.rondo.server.cli.console.Progress;
import io.rondo.server.cli.console.ProgressLine;
import io.rondo.server.cli.console.ShutdownHook;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.config.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import static io.rondo.server.cli.play.PlayMessages.NAME;

/**
 * {@code rondo play}: receives a stream over the stream protocol and writes the media (init
 * segment, then every fragment in order) to a file or to standard output, for any decoder that
 * reads a pipe (papers/000 Section 2's client proxy). It plays the part of the client's buffer:
 * the progress line shows how far the media written runs ahead of real-time playback, REPORT
 * frames tell the server the same, and a fragment that arrives after its deadline is a glitch.
 */
@Command(name = "play",
    description = {"Receive a stream and write its media (the init segment, then every fragment) to FILE, or with "
        + "-o - to standard output for a decoder:",
        "  rondo play rondo://127.0.0.1:8554/videos/clip.webm -o - | ffplay -",
        "",
        "A file is written as FILE.part and renamed to FILE when the stream ends, so FILE only ever holds a whole "
            + "stream: if the stream fails, FILE.part is deleted; on Ctrl-C it is kept with what arrived. A FILE that "
            + "is not a regular file (a device such as /dev/null, a FIFO) is written in place, never replaced.",
        "",
        "Standard error shows a progress line: the media position and fragments written; the buffer (media written "
            + "ahead of real-time playback since the first fragment, as REPORT tells the server); the receive rate "
            + "over the last 3 s; glitches (fragments that arrived after their deadline); bytes written; and, while "
            + "the object is being recorded, LIVE and how far the media written is behind the live edge. It is "
            + "redrawn in place on a terminal, and printed every 5 s to a log.",
        "",
        "A recording being made plays like any object, from --start; --live starts at its live edge (the newest "
            + "keyframe) and --behind that far behind it:",
        "  rondo play rondo://127.0.0.1:8554/cams/door.webm --live -o - | ffplay -",
        "",
        "A server that does not hold the object, or has no room, may send the client to another node of its cluster "
            + "(REDIRECT), which it follows. A connection lost mid-stream (the node stopped or failed, the network "
            + "broke) is made again to URL's address, --reconnect times at most, and the stream goes on at the "
            + "fragment after the last written; each gap is told on standard error and counted in the summary."},
    mixinStandardHelpOptions = true,
    sortOptions = false,
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:The stream ended (END); or the reader of standard output left (a decoder that quit, | head -c 100) "
            + "and the stream was closed.",
        "1:An unexpected failure, such as the output file failing mid-stream.",
        "2:Bad usage: a bad URL or option, or an output file that cannot be written.",
        "3:The server refused the stream (REJECT); the reason is printed, with when to retry if a retry can help.",
        "4:The server could not be reached, ended the stream with ERROR, or the connection broke or timed out.",
        "130:Interrupted (Ctrl-C): the stream was closed and what arrived was flushed."})
public final class PlayCommand implements Callable<Integer> {

    static final int EXIT_ENDED = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_REFUSED = 3;
    static final int EXIT_BROKEN = 4;
    static final int EXIT_INTERRUPTED = 130;

    /** How long Ctrl-C waits for the stream to close and the output to be flushed: a gone server cannot hang it. */
    private static final long STOP_WAIT_NS = 2_000_000_000L;

    /** The wait before the first reconnection; each further one waits twice as long. */
    private static final Duration RECONNECT_BACKOFF = Duration.ofMillis(250);

    /** The least time between two redraws of the progress line on a terminal. */
    static final long PROGRESS_REDRAW_NS = 250_000_000L;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "rondo://HOST:PORT/NAME, NAME as the catalog lists it.")
    private String url;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true,
        description = "Where the media goes; - for standard output.")
    private String output;

    @Option(names = "--start", paramLabel = "SECONDS", defaultValue = "0",
        description = "Start this far into the media (default: ${DEFAULT-VALUE}).")
    private String start;

    @Option(names = "--live",
        description = "Start at the live edge of a recording being made: its newest keyframe (of an object not "
            + "being recorded, its last).")
    private boolean live;

    @Option(names = "--behind", paramLabel = "DURATION",
        description = "Start this far behind the live edge, e.g. 20s or 1500ms (of an object not being recorded, "
            + "behind its end).")
    private String behind;

    @Option(names = "--max-rate", paramLabel = "BYTES", defaultValue = "16M",
        description = "The most bytes per second this client takes, declared in OPEN (default: ${DEFAULT-VALUE}): "
            + "it writes each fragment out as it arrives, so this is its link's and its output's rate. The server "
            + "paces no faster, and ends a stream whose client takes its data slower than it declared; with a fast "
            + "rate and a large buffer it reserves less memory for the stream (docs/client-buffers.md).")
    private String maxRate;

    @Option(names = "--buffer", paramLabel = "BYTES", defaultValue = "64M",
        description = "The bytes this client holds ahead of playback, declared in OPEN (default: ${DEFAULT-VALUE}): "
            + "it holds nothing itself, so this is what its output takes ahead (a file takes it all; declare what a "
            + "player reading standard output buffers).")
    private String buffer;

    @Option(names = "--reconnect", paramLabel = "N", defaultValue = "3",
        description = "How many times to connect again, 250 ms apart and then twice as long each time, when the "
            + "connection is lost mid-stream; 0 never does (default: ${DEFAULT-VALUE}).")
    private int reconnect;

    @Option(names = {"-q", "--quiet"},
        description = "No progress line and no summary on standard error; failures are still explained.")
    private boolean quiet;

    private final LongSupplier nanoClock;
    private final BooleanSupplier stderrIsTerminal;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopping;
    private volatile StreamClient streaming;
    /** FILE.part, for Ctrl-C during a connect that does not return: null for standard output. */
    private volatile Path partial;

    PlayCommand() {
        this(SystemClocks.nanoClock()::nanoTime, Progress::stderrIsTerminal);
    }

    /**
     * @param nanoClock the clock of arrivals, rates and the buffer; read once per DATA
     * @param stderrIsTerminal whether to redraw the progress line in place rather than print log lines
     */
    PlayCommand(LongSupplier nanoClock, BooleanSupplier stderrIsTerminal) {
        this.nanoClock = nanoClock;
        this.stderrIsTerminal = stderrIsTerminal;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        StreamUrl target;
        long startNs;
        ClientProfile profile;
        MediaOutput media;
        boolean fromLive = live || behind != null;
        try {
            target = StreamUrl.parse(url);
            startNs = fromLive ? behindNs() : startNs(start);
            profile = new ClientProfile(ByteSizes.parse(maxRate, "--max-rate"), ByteSizes.parse(buffer, "--buffer"));
            if (reconnect < 0) {
                throw new IllegalArgumentException("--reconnect must be 0 or more, was " + reconnect);
            }
            media = MediaOutput.open(output, System.out);
            partial = media.part();
        } catch (IllegalArgumentException e) {
            err.println(NAME + e.getMessage());
            err.flush();
            return EXIT_USAGE;
        }
        ShutdownHook hook = ShutdownHook.install("rondo-play-stop", this::stop);
        try {
            return play(target, new Start(startNs, fromLive), profile, media, new ProgressLine(err, quiet,
                stderrIsTerminal.getAsBoolean(), PROGRESS_REDRAW_NS));
        } finally {
            hook.close();
            media.abandon();
            finished.countDown();
        }
    }

    /** Where the stream starts: {@code ns} into the media, or with {@code fromLive} that far behind the live edge. */
    private record Start(long ns, boolean fromLive) {
    }

    private long behindNs() {
        if (!start.equals("0")) {
            throw new IllegalArgumentException("--start counts from the media's start, --live and --behind from the "
                + "live edge: give one of them");
        }
        if (live && behind != null) {
            throw new IllegalArgumentException("--live starts at the live edge and --behind behind it: give one");
        }
        return behind == null ? 0 : Durations.parseMillis(behind, "--behind") * 1_000_000L;
    }

    private static long startNs(String seconds) {
        double value;
        try {
            value = Double.parseDouble(seconds.trim());
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value >= 0) || value * 1e9 >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("--start must be a number of seconds, 0 or more, was '" + seconds + "'");
        }
        return (long) (value * 1e9);
    }

    /**
     * Ctrl-C, as the shutdown hook runs it: closes the stream (CLOSE, then the connection) and waits,
     * at most {@link #STOP_WAIT_NS}, for the playing thread to flush the output and print the
     * summary. The close runs on a thread of its own, so a server that is gone cannot hold it up.
     */
    void stop() {
        stopping = true;
        StreamClient client = streaming;
        if (client != null) {
            Thread closer = new Thread(() -> closeQuietly(client), "rondo-play-close");
            closer.setDaemon(true);
            closer.start();
        }
        try {
            if (!finished.await(STOP_WAIT_NS, TimeUnit.NANOSECONDS)) {
                PrintWriter err = spec.commandLine().getErr();
                err.println();
                if (streaming == null) {
                    deleteIfEmpty(partial);
                    err.println(NAME + "interrupted while connecting");
                } else {
                    err.println(NAME + "interrupted; the output could not be flushed in time and may end inside a "
                        + "fragment");
                }
                err.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Still connecting, nothing was written: the empty FILE.part goes, whatever the playing thread does later. */
    private static void deleteIfEmpty(Path part) {
        try {
            if (part != null && Files.size(part) == 0) {
                Files.delete(part);
            }
        } catch (IOException e) {
            // Gone already, or not ours to delete any more.
        }
    }

    private int play(StreamUrl target, Start start, ClientProfile profile, MediaOutput media, ProgressLine progress) {
        StreamClient client;
        try {
            client = StreamClient.connect(target.host(), target.port(), StreamClient.DEFAULT_TIMEOUT,
                StreamClient.DEFAULT_REPORT_INTERVAL, new Reconnect(reconnect, RECONNECT_BACKOFF,
                    () -> Instant.ofEpochSecond(0, nanoClock.getAsLong())));
        } catch (IOException e) {
            if (stopping) {
                return interrupted(null, media, progress);
            }
            progress.fail(PlayMessages.cannotConnect(target.address(), e));
            return failed(EXIT_BROKEN, media, progress);
        }
        streaming = client;
        PlaybackMeter meter = null;
        try {
            if (stopping) {
                return interrupted(null, media, progress);
            }
            Accept accept = start.fromLive() ? client.openFromLive(target.objectName(), start.ns(), profile)
                : client.open(target.objectName(), start.ns(), profile);
            meter = new PlaybackMeter(accept, nanoClock.getAsLong());
            media.write(accept.initSegment());
            int gapsTold = 0;
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                long nowNs = nanoClock.getAsLong();
                List<Gap> gaps = client.gaps();
                for (; gapsTold < gaps.size(); gapsTold++) {
                    progress.fail(PlayMessages.gap(gaps.get(gapsTold)));
                }
                meter.received(data, nowNs);
                client.bufferLevel(meter.bufferedNs(nowNs), meter.bufferedBytes(nowNs));
                media.write(data.payload());
                PlaybackMeter shown = meter;
                Live recording = client.lastLive();
                progress.update(nowNs, () -> PlayMessages.progressLine(shown, recording, nowNs));
            }
            if (stopping) {
                return interrupted(meter, media, progress);
            }
            media.finish();
            progress.end(PlayMessages.summary("the stream ended", meter, nanoClock.getAsLong())
                + PlayMessages.gaps(client.gaps()) + media.where());
            return EXIT_ENDED;
        } catch (StreamRejectedException e) {
            progress.fail(PlayMessages.refusal(target.objectName(), e.reject()));
            return failed(EXIT_REFUSED, media, progress);
        } catch (OutputException e) {
            if (stopping) {
                return interrupted(meter, media, progress);
            }
            closeQuietly(client);
            if (e.readerLeft()) {
                progress.end(PlayMessages.summary("the reader of standard output left, so the stream was closed",
                    meter, nanoClock.getAsLong()));
                return EXIT_ENDED;
            }
            progress.fail(NAME + e.getMessage());
            return failed(EXIT_FAILED, media, progress);
        } catch (IOException e) {
            if (stopping) {
                return interrupted(meter, media, progress);
            }
            progress.fail(PlayMessages.broken(e, meter));
            return failed(EXIT_BROKEN, media, progress);
        } catch (IllegalStateException e) {
            // Ctrl-C closed the client between two of its calls.
            if (stopping) {
                return interrupted(meter, media, progress);
            }
            throw e;
        } finally {
            closeQuietly(client);
        }
    }

    private int interrupted(PlaybackMeter meter, MediaOutput media, ProgressLine progress) {
        String kept = media.keep();
        progress.end((meter == null ? NAME + "interrupted before the stream started"
            : PlayMessages.summary("interrupted", meter, nanoClock.getAsLong())) + kept);
        return EXIT_INTERRUPTED;
    }

    private static int failed(int exitCode, MediaOutput media, ProgressLine progress) {
        String deleted = media.abandon();
        if (!deleted.isEmpty()) {
            progress.fail(NAME + deleted);
        }
        return exitCode;
    }

    private static void closeQuietly(StreamClient client) {
        try {
            client.close();
        } catch (IOException e) {
            // The connection is gone already; there is nothing left to close.
        }
    }
}

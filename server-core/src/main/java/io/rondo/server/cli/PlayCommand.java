package io.rondo.server.cli;

import io.rondo.client.StreamClient;
import io.rondo.client.StreamErrorException;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Reject;
import io.rondo.server.config.ByteSizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

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
            + "stream: if the stream fails, FILE.part is deleted; on Ctrl-C it is kept with what arrived.",
        "",
        "Standard error shows a progress line: the media position and fragments written; the buffer (media written "
            + "ahead of real-time playback since the first fragment, as REPORT tells the server); the receive rate "
            + "over the last 3 s; glitches (fragments that arrived after their deadline); bytes written. It is "
            + "redrawn in place on a terminal, and printed every 5 s to a log."},
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
final class PlayCommand implements Callable<Integer> {

    static final int EXIT_ENDED = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_REFUSED = 3;
    static final int EXIT_BROKEN = 4;
    static final int EXIT_INTERRUPTED = 130;

    /** How long Ctrl-C waits for the stream to close and the output to be flushed: a gone server cannot hang it. */
    static final long STOP_WAIT_NS = 2_000_000_000L;

    /** The buffer OPEN declares: what a decoder reading a pipe typically holds. */
    private static final long CLIENT_BUFFER_BYTES = 8L << 20;

    private static final String NAME = "rondo play: ";

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

    @Option(names = "--max-rate", paramLabel = "BYTES", defaultValue = "16M",
        description = "The most bytes per second this client takes (default: ${DEFAULT-VALUE}).")
    private String maxRate;

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
        this(System::nanoTime, PlayCommand::stderrIsTerminal);
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
        Target target;
        long startNs;
        long rate;
        MediaOutput media;
        try {
            target = Target.parse(url);
            startNs = startNs(start);
            rate = ByteSizes.parse(maxRate, "--max-rate");
            media = MediaOutput.open(output);
            partial = media.part;
        } catch (IllegalArgumentException e) {
            err.println(NAME + e.getMessage());
            err.flush();
            return EXIT_USAGE;
        }
        Thread hook = new Thread(this::stop, "rondo-play-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return play(target, startNs, rate, media, new ProgressPrinter(err, quiet, stderrIsTerminal.getAsBoolean()));
        } finally {
            media.abandon();
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down: the hook is running now, and ends with the JVM.
            }
        }
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

    private int play(Target target, long startNs, long rate, MediaOutput media, ProgressPrinter progress) {
        StreamClient client;
        try {
            client = StreamClient.connect(target.host(), target.port());
        } catch (IOException e) {
            if (stopping) {
                return interrupted(null, media, progress);
            }
            progress.fail(NAME + "cannot connect to " + target.address() + ": " + reason(e)
                + "; is rondo serve running there, with that stream port?");
            return failed(EXIT_BROKEN, media, progress);
        }
        streaming = client;
        PlaybackMeter meter = null;
        try {
            if (stopping) {
                return interrupted(null, media, progress);
            }
            Accept accept = client.open(target.name(), startNs, new ClientProfile(rate, CLIENT_BUFFER_BYTES));
            meter = new PlaybackMeter(accept, nanoClock.getAsLong());
            media.write(accept.initSegment());
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                long nowNs = nanoClock.getAsLong();
                meter.received(data, nowNs);
                client.bufferLevel(meter.bufferedNs(nowNs), meter.bufferedBytes(nowNs));
                media.write(data.payload());
                progress.update(meter, nowNs);
            }
            if (stopping) {
                return interrupted(meter, media, progress);
            }
            media.finish();
            progress.end(meter.summary("the stream ended", nanoClock.getAsLong()) + media.where());
            return EXIT_ENDED;
        } catch (StreamRejectedException e) {
            progress.fail(refusal(target.name(), e.reject()));
            return failed(EXIT_REFUSED, media, progress);
        } catch (OutputException e) {
            if (stopping) {
                return interrupted(meter, media, progress);
            }
            closeQuietly(client);
            if (e.readerLeft) {
                progress.end(meter.summary("the reader of standard output left, so the stream was closed",
                    nanoClock.getAsLong()));
                return EXIT_ENDED;
            }
            progress.fail(NAME + e.getMessage());
            return failed(EXIT_FAILED, media, progress);
        } catch (IOException e) {
            if (stopping) {
                return interrupted(meter, media, progress);
            }
            progress.fail(NAME + broken(e, meter));
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

    private int interrupted(PlaybackMeter meter, MediaOutput media, ProgressPrinter progress) {
        String kept = media.keep();
        progress.end((meter == null ? NAME + "interrupted before the stream started"
            : meter.summary("interrupted", nanoClock.getAsLong())) + kept);
        return EXIT_INTERRUPTED;
    }

    private static int failed(int exitCode, MediaOutput media, ProgressPrinter progress) {
        String deleted = media.abandon();
        if (!deleted.isEmpty()) {
            progress.fail(NAME + deleted);
        }
        return exitCode;
    }

    private static String refusal(String name, Reject reject) {
        return NAME + "the server refused the stream of " + name + ": " + reject.reason()
            + (reject.message().isEmpty() ? "" : " (" + reject.message() + ")")
            + (reject.retryAfterSeconds() > 0 ? "; retry in " + reject.retryAfterSeconds() + " s" : "");
    }

    private static String broken(IOException e, PlaybackMeter meter) {
        if (meter == null) {
            if (e instanceof StreamErrorException) {
                return "the server answered with an error: " + e.getMessage();
            }
            return (e instanceof SocketTimeoutException ? "the server did not answer: "
                : "the connection broke before the stream started: ") + reason(e);
        }
        String after = " after " + meter.received() + ": ";
        if (e instanceof StreamErrorException) {
            return "the server ended the stream" + after + e.getMessage();
        }
        if (e instanceof SocketTimeoutException) {
            return "the stream timed out" + after + e.getMessage();
        }
        return "the connection broke" + after + reason(e);
    }

    private static String reason(IOException e) {
        if (e instanceof UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static void closeQuietly(StreamClient client) {
        try {
            client.close();
        } catch (IOException e) {
            // The connection is gone already; there is nothing left to close.
        }
    }

    /**
     * Whether standard error is a terminal. Java 17's {@code System.console()} answers for standard
     * input and output, and {@code -o - | ffplay -} redirects standard output while standard error
     * stays on the terminal; so on Linux the answer comes from file descriptor 2 itself.
     */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    /** Where to play from: the server's stream port and the object's name. */
    private record Target(String host, int port, String name) {

        static Target parse(String text) {
            URI uri;
            try {
                uri = new URI(text);
            } catch (URISyntaxException e) {
                throw bad(text);
            }
            if (!"rondo".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1
                || uri.getPort() > 65535 || uri.getPath() == null || uri.getPath().length() < 2
                || uri.getQuery() != null || uri.getFragment() != null) {
                throw bad(text);
            }
            return new Target(uri.getHost(), uri.getPort(), uri.getPath().substring(1));
        }

        String address() {
            return host + ":" + port;
        }

        private static IllegalArgumentException bad(String text) {
            return new IllegalArgumentException("the URL must be rondo://HOST:PORT/NAME, was '" + text + "'");
        }
    }

    /** Writing the media failed: the file could not be written, or the reader of standard output left. */
    private static final class OutputException extends Exception {
        private static final long serialVersionUID = 1L;

        final boolean readerLeft;

        OutputException(String message, boolean readerLeft) {
            super(message);
            this.readerLeft = readerLeft;
        }
    }

    /**
     * Where the media goes: standard output, or FILE.part, renamed to FILE once the stream has ended
     * so that FILE never holds part of a stream pretending to be all of it.
     */
    private static final class MediaOutput {
        private enum State { OPEN, FINISHED, KEPT, ABANDONED }

        private final PrintStream standardOutput;
        private final OutputStream file;
        private final Path target;
        private final Path part;
        private long written;
        private State state = State.OPEN;

        private MediaOutput(PrintStream standardOutput, OutputStream file, Path target, Path part) {
            this.standardOutput = standardOutput;
            this.file = file;
            this.target = target;
            this.part = part;
        }

        /**
         * Standard output for {@code -}, else FILE.part, created now so that a file that cannot be
         * written is refused before any connection.
         *
         * @throws IllegalArgumentException if the file cannot be written
         */
        static MediaOutput open(String output) {
            if (output.equals("-")) {
                return new MediaOutput(System.out, null, null, null);
            }
            Path target = Path.of(output);
            if (Files.isDirectory(target)) {
                throw new IllegalArgumentException("cannot write " + output + ": it is a folder");
            }
            Path part = target.resolveSibling(target.getFileName() + ".part");
            try {
                return new MediaOutput(null, Files.newOutputStream(part), target, part);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("cannot write " + output + ": the folder "
                    + target.toAbsolutePath().getParent() + " does not exist");
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot write " + part + ": " + reason(e));
            }
        }

        /**
         * Writes bytes through to the file or the pipe (unbuffered: a fragment is one write).
         * PrintStream never throws, it remembers an error; so standard output is checked after every
         * write, and a decoder that quit (a broken pipe) ends the stream instead of going unnoticed.
         */
        void write(ByteBuffer bytes) throws OutputException {
            ByteBuffer view = bytes.duplicate();
            byte[] copy = new byte[view.remaining()];
            view.get(copy);
            if (standardOutput != null) {
                standardOutput.write(copy, 0, copy.length);
                if (standardOutput.checkError()) {
                    throw new OutputException("the reader of standard output left", true);
                }
            } else {
                try {
                    file.write(copy);
                } catch (IOException e) {
                    throw new OutputException("cannot write " + part + ": " + reason(e), false);
                }
            }
            written += copy.length;
        }

        /** The stream ended: flushes, and renames FILE.part to FILE. */
        void finish() throws OutputException {
            if (standardOutput != null) {
                if (standardOutput.checkError()) {
                    throw new OutputException("the reader of standard output left", true);
                }
                state = State.FINISHED;
                return;
            }
            try {
                file.close();
                try {
                    Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
                }
                state = State.FINISHED;
            } catch (IOException e) {
                throw new OutputException("cannot write " + target + ": " + reason(e), false);
            }
        }

        /** Interrupted: flushes and keeps what arrived in FILE.part; says where, for the summary line. */
        String keep() {
            if (standardOutput != null) {
                standardOutput.flush();
                state = State.KEPT;
                return "";
            }
            if (written == 0) {
                abandon();
                return "";
            }
            try {
                file.close();
                state = State.KEPT;
                return "; kept the " + written + " bytes that arrived in " + part;
            } catch (IOException e) {
                abandon();
                return "; could not keep " + part + ": " + reason(e);
            }
        }

        /**
         * The stream failed: deletes FILE.part; says so if it held anything. Does nothing once the
         * output is finished or kept.
         */
        String abandon() {
            if (state != State.OPEN || standardOutput != null) {
                return "";
            }
            state = State.ABANDONED;
            try {
                file.close();
            } catch (IOException e) {
                // Deleted below; what it held no longer matters.
            }
            try {
                Files.deleteIfExists(part);
                return written == 0 ? "" : "deleted " + part + " (" + written + " bytes, an incomplete stream)";
            } catch (IOException e) {
                return "could not delete " + part + " (an incomplete stream): " + reason(e);
            }
        }

        /** For the summary line: where the media went. */
        String where() {
            return target == null ? "" : "; wrote " + target;
        }
    }

    /**
     * What the progress line and the REPORTs say, from the stream's frames and when they arrived.
     * Every method is handed {@code nowNs}, read once per DATA from the command's clock, so tests
     * step time instead of waiting for it.
     *
     * <p>The buffer is the media written ahead of real-time playback: presentation time written
     * (to the end of the last fragment) since the first DATA, minus wall time since the first DATA.
     * A decoder reading the pipe plays from the first fragment at real-time speed, so that is what
     * it holds ahead of its playhead. Its bytes are estimated from the object's mean bit rate.
     */
    static final class PlaybackMeter {
        /** The receive rate is measured over this window. */
        static final long RATE_WINDOW_NS = 3_000_000_000L;
        /**
         * The rate is never divided by less than this: the first fragment arrives a moment after
         * ACCEPT, and its bytes over that moment would be the loopback's speed, not the stream's.
         */
        static final long RATE_MIN_SPAN_NS = 1_000_000_000L;

        private final long acceptedNs;
        private final long fragmentDurationNs;
        private final long bitsPerSecond;
        /** (nowNs, bytes so far) at ACCEPT and at each DATA, the oldest at or just before the window. */
        private final ArrayDeque<long[]> samples = new ArrayDeque<>();
        private long bytes;
        private long fragments;
        private long glitches;
        private long firstDataNs;
        private long firstPresentationNs;
        private long writtenToNs;

        PlaybackMeter(Accept accept, long acceptedNs) {
            this(accept.fragmentDurationNs(), accept.bitsPerSecond(), accept.initSegment().remaining(), acceptedNs);
        }

        /**
         * @param fragmentDurationNs display time of one fragment, from ACCEPT
         * @param bitsPerSecond the object's mean bit rate, from ACCEPT
         * @param initBytes the init segment's length, written first
         * @param acceptedNs when ACCEPT arrived: 0 on the stream's clock
         */
        PlaybackMeter(long fragmentDurationNs, long bitsPerSecond, long initBytes, long acceptedNs) {
            this.fragmentDurationNs = fragmentDurationNs;
            this.bitsPerSecond = bitsPerSecond;
            this.acceptedNs = acceptedNs;
            this.bytes = initBytes;
            samples.add(new long[] {acceptedNs, initBytes});
        }

        /**
         * Counts a DATA that arrived at {@code nowNs}.
         *
         * @return whether it was a glitch: it arrived after its deadline on the stream's clock
         */
        boolean received(Data data, long nowNs) {
            boolean late = (nowNs - acceptedNs) - data.deadlineNs() > 0;
            if (late) {
                glitches++;
            }
            if (fragments == 0) {
                firstDataNs = nowNs;
                firstPresentationNs = data.presentationNs();
            }
            fragments++;
            bytes += data.payload().remaining();
            writtenToNs = data.presentationNs() + fragmentDurationNs;
            samples.add(new long[] {nowNs, bytes});
            while (samples.size() > 1 && nowNs - nextToOldest()[0] >= RATE_WINDOW_NS) {
                samples.poll();
            }
            return late;
        }

        private long[] nextToOldest() {
            Iterator<long[]> it = samples.iterator();
            it.next();
            return it.next();
        }

        /** Presentation time written ahead of real-time playback from the first DATA; 0 before it. */
        long bufferedNs(long nowNs) {
            if (fragments == 0) {
                return 0;
            }
            return Math.max(0, (writtenToNs - firstPresentationNs) - (nowNs - firstDataNs));
        }

        /** The bytes of {@link #bufferedNs}, at the object's mean bit rate. */
        long bufferedBytes(long nowNs) {
            return Math.round(bufferedNs(nowNs) * (double) bitsPerSecond / 8e9);
        }

        /**
         * Bytes per second received over about the last {@link #RATE_WINDOW_NS} since ACCEPT, the
         * span taken as at least {@link #RATE_MIN_SPAN_NS}.
         */
        long bytesPerSecond(long nowNs) {
            long[] oldest = samples.peek();
            long spanNs = Math.max(RATE_MIN_SPAN_NS, nowNs - oldest[0]);
            return (long) ((bytes - oldest[1]) * 1e9 / spanNs);
        }

        long glitches() {
            return glitches;
        }

        /** The media position written to: the end of the last fragment, in nanoseconds of presentation time. */
        long positionNs() {
            return writtenToNs;
        }

        /** The progress line, without the carriage return. */
        String progressLine(long nowNs) {
            return String.format(Locale.ROOT, "%s%.1f s (%s), buffer %.1f s, %s, %s, %s", NAME, writtenToNs / 1e9,
                count(fragments, "fragment", "fragments"), bufferedNs(nowNs) / 1e9, rate(bytesPerSecond(nowNs)),
                count(glitches, "glitch", "glitches"), human(bytes));
        }

        /** What arrived so far, for a line that says how a stream failed. */
        String received() {
            return String.format(Locale.ROOT, "%.1f s (%s, %s)", writtenToNs / 1e9,
                count(fragments, "fragment", "fragments"), human(bytes));
        }

        /** The final line: how the stream ended, what arrived, how fast, and the glitches. */
        String summary(String outcome, long nowNs) {
            long elapsedNs = Math.max(1, nowNs - acceptedNs);
            return String.format(Locale.ROOT, "%s%s: %.1f s (%s), %s in %.1f s (%s), %s", NAME, outcome,
                writtenToNs / 1e9, count(fragments, "fragment", "fragments"), human(bytes), elapsedNs / 1e9,
                rate((long) (bytes * 1e9 / elapsedNs)), count(glitches, "glitch", "glitches"));
        }

        private static String count(long n, String one, String many) {
            return n + " " + (n == 1 ? one : many);
        }
    }

    /** A rate for people, in decimal units: {@code 1.2 MB/s}. */
    static String rate(long bytesPerSecond) {
        return human(bytesPerSecond) + "/s";
    }

    /** A byte count for people, in decimal units: {@code 512 B}, {@code 171.2 kB}, {@code 8.4 MB}. */
    static String human(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB"};
        double value = bytes / 1000.0;
        int unit = 0;
        while (value >= 999.95 && unit < units.length - 1) {
            value /= 1000;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /**
     * Draws the progress line on standard error. On a terminal it is redrawn in place with a
     * carriage return, at most every {@link #REDRAW_NS}; anywhere else (a log file, a CI console)
     * carriage returns would pile up into one unreadable line, so a whole line is printed every
     * {@link #LOG_LINE_NS} instead.
     */
    static final class ProgressPrinter {
        static final long REDRAW_NS = 250_000_000L;
        static final long LOG_LINE_NS = 5_000_000_000L;

        private final PrintWriter err;
        private final boolean quiet;
        private final boolean redraw;
        private boolean printed;
        private boolean showing;
        private long lastNs;
        private int width;

        ProgressPrinter(PrintWriter err, boolean quiet, boolean redraw) {
            this.err = err;
            this.quiet = quiet;
            this.redraw = redraw;
        }

        /** Shows the meter's progress line if the last one is old enough. */
        void update(PlaybackMeter meter, long nowNs) {
            if (quiet || printed && nowNs - lastNs < (redraw ? REDRAW_NS : LOG_LINE_NS)) {
                return;
            }
            String line = meter.progressLine(nowNs);
            if (redraw) {
                err.print("\r" + padded(line));
                showing = true;
            } else {
                err.println(line);
            }
            err.flush();
            printed = true;
            lastNs = nowNs;
        }

        /** The summary, over the progress line; nothing when quiet. */
        void end(String line) {
            if (!quiet) {
                finalLine(line);
            }
        }

        /** A failure's explanation, shown even when quiet. */
        void fail(String line) {
            finalLine(line);
        }

        private void finalLine(String line) {
            err.println(showing ? "\r" + padded(line) : line);
            err.flush();
            showing = false;
            width = 0;
        }

        private String padded(String line) {
            String result = line.length() < width ? line + " ".repeat(width - line.length()) : line;
            width = line.length();
            return result;
        }
    }
}

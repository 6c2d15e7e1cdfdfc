package io.rondo.server.cli.play;

import io.rondo.scheduler.time.SystemClocks;
import io.rondo.client.StreamClient;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.disk.DiskProfile;
import io.rondo.server.cli.RondoCommand;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo play} as a person runs it, against a real server on loopback (emulated paper disks,
 * 1 s rounds): what arrives, where it goes, how it ends and with which exit code. What the progress
 * line and the summary say, on a stepped clock, is in {@link PlaybackMeterTest},
 * {@link PlayMessagesTest} and {@link io.rondo.server.cli.console.ProgressLineTest}.
 */
class PlayCommandTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path temp;

    private final StringWriter stdout = new StringWriter();
    private final StringWriter stderr = new StringWriter();
    private Library library;
    private DiskRuntime disks;
    private StreamServer streams;
    private byte[] clip;
    private ExecutorService background;

    private void serve() throws Exception {
        serve(AdmissionConfig.defaults());
    }

    private void serve(AdmissionConfig admission) throws Exception {
        library = Library.open(RondoConfig.defaults(), temp.resolve("data"), SystemClocks.utc());
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        Path clipFile = Files.write(temp.resolve("c.webm"), clip);
        clip = io.rondo.server.StoredCopy.of(clipFile);
        library.ingest().ingest(new IngestRequest(clipFile, "/clip.webm", null, 0), c -> { });
        disks = new DiskRuntime(DiskRuntime.options(library.store().disks(), library.store()::pathOf)
                .model(DiskProfile.paperDisk())
                .roundNs(SECOND)
                .emulate(true)
                .clocks(SystemClocks.nanoClock(), SystemClocks.epochClock()));
        streams = StreamServer.start(new InetSocketAddress("127.0.0.1", 0), library.directory(), disks, admission,
            SystemClocks.epochClock());
        disks.start();
    }

    @AfterEach
    void stop() {
        if (background != null) {
            background.shutdownNow();
        }
        if (streams != null) {
            streams.close();
        }
        if (disks != null) {
            disks.close();
        }
        if (library != null) {
            library.close();
        }
    }

    private String url(String name) {
        return "rondo://127.0.0.1:" + streams.address().getPort() + "/" + name;
    }

    private int rondo(String... args) {
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    private long initLength() {
        return library.store().catalog().byName("/clip.webm").orElseThrow().media().init().length();
    }

    private int fragmentCount() {
        return library.store().catalog().byName("/clip.webm").orElseThrow().media().fragments().size();
    }

    private void awaitFirstFragment(Path part) {
        await("the partial file holds the init segment and a fragment").atMost(Duration.ofSeconds(20))
            .until(() -> Files.exists(part) && Files.size(part) > initLength());
    }

    private void awaitServerQuiet() {
        await("the server ended the stream and released its admission").atMost(Duration.ofSeconds(5))
            .untilAsserted(() -> {
                assertEquals(0, streams.activeStreams(), "the server ended the stream");
                assertEquals(0, streams.admission().admittedStreams(), "the stream's admission was released");
            });
    }

    private static void assertOneLineWithoutStackTrace(String errors) {
        assertEquals(1, errors.strip().lines().count(), "one line: " + errors);
        assertFalse(errors.contains("\tat ") || errors.contains("Exception"), "no stack trace: " + errors);
    }

    @Test
    void playsTheClipToAFileByteForByteAndSaysHowItEnded() throws Exception {
        serve();
        Path out = temp.resolve("out.webm");

        int exit = rondo("play", url("clip.webm"), "-o", out.toString());

        assertEquals(0, exit, stderr.toString());
        assertArrayEquals(clip, Files.readAllBytes(out), "the init segment and every fragment are the object");
        assertTrue(Files.notExists(temp.resolve("out.webm.part")), "the partial file was renamed");
        String errors = stderr.toString();
        assertTrue(errors.contains("rondo play: the stream ended: "), errors);
        assertTrue(errors.contains(fragmentCount() + " fragments"), errors);
        assertTrue(errors.contains("wrote " + out), errors);
        assertTrue(stdout.toString().isEmpty(), "nothing on standard output but media: " + stdout);
    }

    @Test
    void aStreamOverAnExistingFileReplacesItOnlyWhenWhole() throws Exception {
        serve();
        Path out = temp.resolve("out.webm");
        Files.writeString(out, "an older recording");

        assertEquals(3, rondo("play", url("nothing.webm"), "-o", out.toString(), "-q"));
        assertEquals("an older recording", Files.readString(out), "a refused stream leaves the old file alone");

        assertEquals(0, rondo("play", url("clip.webm"), "-o", out.toString(), "-q"), stderr.toString());
        assertArrayEquals(clip, Files.readAllBytes(out));
        assertTrue(stderr.toString().lines().noneMatch(line -> line.contains("stream ended")),
            "--quiet prints no summary: " + stderr);
    }

    @Test
    void aFifoIsWrittenInPlaceAndItsReaderGetsTheWholeStream() throws Exception {
        serve();
        Path fifo = temp.resolve("pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor(), "mkfifo made the FIFO");
        background = Executors.newSingleThreadExecutor();
        Future<byte[]> reader = background.submit(() -> Files.readAllBytes(fifo));

        int exit = rondo("play", url("clip.webm"), "-o", fifo.toString(), "-q");

        assertEquals(0, exit, stderr.toString());
        assertArrayEquals(clip, reader.get(20, TimeUnit.SECONDS), "the FIFO's reader got the stream and its end");
        assertEquals("p", fileType(fifo), "still a FIFO, not replaced by a regular file");
        assertTrue(Files.notExists(temp.resolve("pipe.part")), "no partial file beside it");
    }

    @Test
    void devNullIsWrittenInPlaceAndStaysADevice() throws Exception {
        serve();
        Path devNull = Path.of("/dev/null");
        assertEquals("c", fileType(devNull));

        int exit = rondo("play", url("clip.webm"), "-o", devNull.toString(), "-q");

        assertEquals(0, exit, stderr.toString());
        assertEquals("c", fileType(devNull), "/dev/null is still the character device");
        assertTrue(Files.notExists(Path.of("/dev/null.part")), "no partial file beside it");
    }

    /** The file's type as ls -l shows it: c for a character device, p for a FIFO, - for a regular file. */
    private static String fileType(Path path) throws Exception {
        int type = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
        return switch (type) {
            case 0020000 -> "c";
            case 0010000 -> "p";
            case 0100000 -> "-";
            default -> Integer.toOctalString(type);
        };
    }

    @Test
    void aMissingObjectIsRefusedWithTheReasonAndLeavesNoFile() throws Exception {
        serve();
        Path out = temp.resolve("missing.webm");

        int exit = rondo("play", url("nothing.webm"), "-o", out.toString());

        assertEquals(3, exit);
        String errors = stderr.toString();
        assertTrue(errors.contains("refused the stream of nothing.webm: NOT_FOUND"), errors);
        assertTrue(errors.contains("no object is named"), errors);
        assertFalse(errors.contains("retry in"), "retrying cannot find it: " + errors);
        assertOneLineWithoutStackTrace(errors);
        assertTrue(Files.notExists(out), "no file for a stream that never started");
        assertTrue(Files.notExists(temp.resolve("missing.webm.part")), "and no partial file");
    }

    /** With room for one stream per round and one playing, the next is refused for disk time, with a retry-after. */
    @Test
    void aBusyServerSaysWhenToRetry() throws Exception {
        serve(AdmissionConfig.defaults().withDiscreteReserve(0.975));
        Path out = temp.resolve("busy.webm");
        try (StreamClient first = StreamClient.connect("127.0.0.1", streams.address().getPort())) {
            first.open("clip.webm", 0, new ClientProfile(4L << 20, 8L << 20));

            int exit = rondo("play", url("clip.webm"), "-o", out.toString());

            assertEquals(3, exit);
            String errors = stderr.toString();
            assertTrue(errors.startsWith("rondo play: the server refused the stream of clip.webm: DISK_TIME"), errors);
            assertTrue(Pattern.compile("; retry in [1-9][0-9]* s$").matcher(errors.strip()).find(), errors);
            assertOneLineWithoutStackTrace(errors);
            assertTrue(Files.notExists(out));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8554/clip.webm", "rondo://127.0.0.1/clip.webm",
        "rondo://127.0.0.1:8554/", "rondo://127.0.0.1:70000/clip.webm", "clip.webm", "rondo://[oops/clip.webm"})
    void aBadUrlIsOneLineWithoutAStackTrace(String bad) {
        int exit = rondo("play", bad, "-o", temp.resolve("out.webm").toString());

        assertEquals(2, exit);
        String expected = "rondo play: the URL must be rondo://HOST:PORT/NAME, was '" + bad + "'";
        assertTrue(stderr.toString().startsWith(expected), stderr.toString());
        assertOneLineWithoutStackTrace(stderr.toString());
        assertTrue(Files.notExists(temp.resolve("out.webm.part")));
    }

    @Test
    void badOptionsAreRefusedInOneLine() {
        Path out = temp.resolve("out.webm");
        for (String start : new String[] {"-1", "soon", "NaN"}) {
            assertEquals(2, rondo("play", "rondo://127.0.0.1:1/clip.webm", "-o", out.toString(), "--start", start));
            assertTrue(stderr.toString().contains("--start must be a number of seconds, 0 or more, was '" + start),
                stderr.toString());
            assertOneLineWithoutStackTrace(stderr.toString());
            stderr.getBuffer().setLength(0);
        }

        assertEquals(2, rondo("play", "rondo://127.0.0.1:1/clip.webm", "-o", out.toString(), "--max-rate", "fast"));
        assertTrue(stderr.toString().contains("--max-rate must be a positive size"), stderr.toString());
        assertOneLineWithoutStackTrace(stderr.toString());
        stderr.getBuffer().setLength(0);
        assertEquals(2, rondo("play", "rondo://127.0.0.1:1/clip.webm", "-o", out.toString(), "--buffer", "none"));
        assertTrue(stderr.toString().contains("--buffer must be a positive size"), stderr.toString());
        assertOneLineWithoutStackTrace(stderr.toString());
        String[][] liveStarts = {
            {"--live", "--start", "5", "--start counts from the media's start, --live and --behind from the live edge"},
            {"--behind", "20s", "--start", "5", "give one of them"},
            {"--live", "--behind", "20s", "--live starts at the live edge and --behind behind it: give one"},
            {"--behind", "soon", "--behind"},
        };
        for (String[] liveStart : liveStarts) {
            stderr.getBuffer().setLength(0);
            String[] args = new String[3 + liveStart.length - 1];
            args[0] = "play";
            args[1] = "rondo://127.0.0.1:1/clip.webm";
            args[2] = "-o" + out;
            System.arraycopy(liveStart, 0, args, 3, liveStart.length - 1);
            assertEquals(2, rondo(args), Arrays.toString(args));
            assertTrue(stderr.toString().contains(liveStart[liveStart.length - 1]), stderr.toString());
            assertOneLineWithoutStackTrace(stderr.toString());
        }
    }

    @Test
    void anOutputThatCannotBeWrittenIsRefusedBeforeConnecting() {
        Path out = temp.resolve("no-such-folder").resolve("out.webm");

        int exit = rondo("play", "rondo://127.0.0.1:1/clip.webm", "-o", out.toString());

        assertEquals(2, exit, "a usage error, not a connection failure: " + stderr);
        assertTrue(stderr.toString().contains("cannot write " + out + ": the folder"), stderr.toString());
        assertTrue(stderr.toString().contains("does not exist"), stderr.toString());
        assertOneLineWithoutStackTrace(stderr.toString());

        stderr.getBuffer().setLength(0);
        assertEquals(2, rondo("play", "rondo://127.0.0.1:1/clip.webm", "-o", temp.toString()));
        assertTrue(stderr.toString().contains("it is a folder"), stderr.toString());
    }

    @Test
    void aServerThatIsNotListeningIsNamed() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Path out = temp.resolve("out.webm");

        int exit = rondo("play", "rondo://127.0.0.1:" + port + "/clip.webm", "-o", out.toString());

        assertEquals(4, exit);
        assertTrue(stderr.toString().startsWith("rondo play: cannot connect to 127.0.0.1:" + port + ": "),
            stderr.toString());
        assertTrue(stderr.toString().contains("is rondo serve running there"), stderr.toString());
        assertOneLineWithoutStackTrace(stderr.toString());
        assertTrue(Files.notExists(out));
        assertTrue(Files.notExists(temp.resolve("out.webm.part")));
    }

    @Test
    void aStreamWhoseServerStopsMidStreamIsOpenedAgainAtTheNextFragmentAndTheGapIsTold() throws Exception {
        serve();
        Path out = temp.resolve("out.webm");
        Path part = temp.resolve("out.webm.part");
        background = Executors.newSingleThreadExecutor();
        Future<Integer> exit = background.submit(() -> rondo("play", url("clip.webm"), "-o", out.toString()));
        awaitFirstFragment(part);

        streams.endStreams();

        assertEquals(0, exit.get(30, TimeUnit.SECONDS), stderr.toString());
        String errors = stderr.toString();
        assertTrue(errors.contains("rondo play: the connection was lost (server error 0x0103 SHUTTING_DOWN"), errors);
        assertTrue(errors.contains("; connected again, the stream went on at fragment "), errors);
        assertTrue(errors.contains("the stream ended: "), errors);
        assertTrue(errors.contains(", 1 reconnection (the longest "), errors);
        assertTrue(Files.exists(out), "the whole stream was written");
    }

    @Test
    void aServerErrorMidStreamExits4AndDeletesThePartialFile() throws Exception {
        serve();
        Path out = temp.resolve("out.webm");
        Path part = temp.resolve("out.webm.part");
        background = Executors.newSingleThreadExecutor();
        Future<Integer> exit = background.submit(() -> rondo("play", url("clip.webm"), "-o", out.toString(), "-q",
            "--reconnect", "0"));
        awaitFirstFragment(part);

        streams.endStreams();

        assertEquals(4, exit.get(20, TimeUnit.SECONDS), stderr.toString());
        String errors = stderr.toString();
        assertTrue(errors.contains("rondo play: the server ended the stream after "), errors);
        assertTrue(errors.contains("shutting down"), errors);
        assertTrue(errors.contains("rondo play: deleted " + part), errors);
        assertFalse(errors.contains("\tat "), errors);
        assertTrue(Files.notExists(part), "the incomplete stream is not left behind");
        assertTrue(Files.notExists(out), "and never pretends to be the media");
    }

    /** What the shutdown hook does on Ctrl-C, called as the hook calls it. */
    @Test
    void ctrlCClosesTheStreamKeepsWhatArrivedAndExits130() throws Exception {
        serve();
        Path out = temp.resolve("out.webm");
        Path part = temp.resolve("out.webm.part");
        PlayCommand play = new PlayCommand(System::nanoTime, () -> false);
        CommandLine line = new CommandLine(play);
        line.setErr(new PrintWriter(stderr, true));
        background = Executors.newSingleThreadExecutor();
        Future<Integer> exit = background.submit(() -> line.execute(url("clip.webm"), "-o", out.toString()));
        awaitFirstFragment(part);

        play.stop();

        assertEquals(130, exit.get(5, TimeUnit.SECONDS), stderr.toString());
        byte[] kept = Files.readAllBytes(part);
        assertTrue(kept.length > initLength(), "the init segment and what arrived after it");
        assertArrayEquals(Arrays.copyOf(clip, kept.length), kept, "what arrived is the start of the object");
        assertTrue(Files.notExists(out), "an interrupted stream is not the media");
        String errors = stderr.toString();
        assertTrue(errors.contains("rondo play: interrupted: "), errors);
        assertTrue(errors.contains("kept the " + kept.length + " bytes that arrived in " + part), errors);
        assertFalse(errors.contains("\tat "), errors);
        assertFalse(errors.contains("could not be flushed in time"), "the hook did not wait it out: " + errors);
        awaitServerQuiet();
    }

    /** A server that took the connection and never answers OPEN cannot hold Ctrl-C up. */
    @Test
    void ctrlCDoesNotWaitForAServerThatNeverAnswers() throws Exception {
        Path out = temp.resolve("out.webm");
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            PlayCommand play = new PlayCommand(System::nanoTime, () -> false);
            CommandLine line = new CommandLine(play);
            line.setErr(new PrintWriter(stderr, true));
            background = Executors.newFixedThreadPool(2);
            Future<Socket> accepted = background.submit(silent::accept);
            Future<Integer> exit = background.submit(() -> line.execute(
                "rondo://127.0.0.1:" + silent.getLocalPort() + "/clip.webm", "-o", out.toString()));
            try (Socket connection = accepted.get(10, TimeUnit.SECONDS)) {
                connection.setSoTimeout(5_000);
                assertArrayEquals(new byte[] {0x52, 0x01, 0x01}, connection.getInputStream().readNBytes(3),
                    "the client sent OPEN and waits for an answer");
                play.stop();

                assertEquals(130, exit.get(5, TimeUnit.SECONDS), stderr.toString());
                connection.getInputStream().readAllBytes();
                assertEquals(-1, connection.getInputStream().read(), "the client closed the connection");
            }
        }
        assertTrue(stderr.toString().contains("rondo play: interrupted before the stream started"), stderr.toString());
        assertFalse(stderr.toString().contains("could not be flushed in time"),
            "the hook did not wait it out: " + stderr);
        assertTrue(Files.notExists(out) && Files.notExists(temp.resolve("out.webm.part")), "nothing arrived: no file");
    }

    /** With a clock that runs an hour per reading, every DATA arrives past its deadline: each is a glitch. */
    @Test
    void fragmentsThatArriveAfterTheirDeadlineAreCountedAsGlitches() throws Exception {
        serve();
        AtomicLong clock = new AtomicLong();
        PlayCommand play = new PlayCommand(() -> clock.addAndGet(3600 * SECOND), () -> false);
        CommandLine line = new CommandLine(play);
        line.setErr(new PrintWriter(stderr, true));

        int exit = line.execute(url("clip.webm"), "-o", temp.resolve("late.webm").toString());

        assertEquals(0, exit, stderr.toString());
        assertTrue(stderr.toString().contains(fragmentCount() + " glitches"), stderr.toString());
    }

    @Test
    void theHelpListsTheExitCodesAndThePartialFile() {
        assertEquals(0, rondo("play", "--help"));
        String help = stdout.toString();
        assertTrue(help.contains("Exit codes:"), help);
        for (String code : new String[] {"0", "1", "2", "3", "4", "130"}) {
            assertTrue(help.lines().anyMatch(l -> l.strip().startsWith(code + " ")), "exit code " + code + ": " + help);
        }
        assertTrue(help.contains("FILE.part"), help);
    }
}

package io.rondo.systemtest;

import io.rondo.content.ingest.IngestRequest;
import io.rondo.server.cli.RondoCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code rondo play URL -o -}, the pipe to a decoder: what reaches standard output is the object,
 * byte for byte, for both demo clips (WebM and fragmented MP4); ffprobe, where it is installed,
 * reads it as the clip; and a reader that leaves early ends the stream without a stack trace.
 */
class PlayPipeTest {

    private static final Duration QUIET = Duration.ofSeconds(10);
    private static final String BARS = "/bars.mp4";

    @TempDir
    static Path temp;

    private static RondoUnderTest rondo;
    private static byte[] bars;

    private final StringWriter stderr = new StringWriter();

    @BeforeAll
    static void serve() throws Exception {
        rondo = RondoUnderTest.start(temp, 1024);
        try (InputStream in = PlayPipeTest.class.getResourceAsStream("/io/rondo/content/demo/color-bars.mp4")) {
            bars = in.readAllBytes();
        }
        Path barsFile = Files.write(temp.resolve("bars.mp4"), bars);
        bars = RondoUnderTest.storedCopy(barsFile);
        rondo.library.ingest().ingest(new IngestRequest(barsFile, BARS, null, 0), c -> { });
    }

    @AfterAll
    static void stop() {
        rondo.close();
    }

    @AfterEach
    void everyStreamIsReleased() {
        rondo.awaitQuiet(QUIET);
    }

    /** Each demo clip: its name in the catalog, its bytes, its video codec as ffprobe names it, its seconds. */
    static Stream<Arguments> clips() {
        return Stream.of(
            Arguments.of(RondoUnderTest.CLIP, "vp9", 6.0),
            Arguments.of(BARS, "h264", 6.0));
    }

    private static byte[] bytesOf(String name) {
        return name.equals(BARS) ? bars : rondo.clip;
    }

    private String url(String name) {
        return "rondo://127.0.0.1:" + rondo.streamPort() + name;
    }

    /** Runs {@code rondo} in this JVM with standard output replaced by {@code stdout}; returns the exit code. */
    private int rondoWithStdout(OutputStream stdout, String... args) {
        PrintStream original = System.out;
        PrintStream replaced = new PrintStream(stdout, false);
        System.setOut(replaced);
        try {
            return RondoCommand.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(stderr, true));
        } finally {
            System.setOut(original);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void standardOutputCarriesTheObjectByteForByteAndTheProgressStaysOnStandardError(String name) {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        int exit = rondoWithStdout(stdout, "play", url(name), "-o", "-");

        assertEquals(0, exit, stderr.toString());
        assertArrayEquals(bytesOf(name), stdout.toByteArray(), "the init segment and every fragment, nothing else");
        assertTrue(stderr.toString().contains("rondo play: the stream ended: "), stderr.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clips")
    void ffprobeReadsThePipedOutputAsTheClip(String name, String codec, double seconds) throws Exception {
        Optional<Path> ffprobe = RondoUnderTest.onPath("ffprobe");
        assumeTrue(ffprobe.isPresent(), "ffprobe is not installed: install ffmpeg to check the output as media");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        assertEquals(0, rondoWithStdout(stdout, "play", url(name), "-o", "-", "-q"), stderr.toString());
        Path played = Files.write(temp.resolve("played-" + name.substring(1)), stdout.toByteArray());

        List<Map<String, String>> sections = ffprobe(ffprobe.get(), played);

        assertTrue(sections.stream().anyMatch(s -> "video".equals(s.get("codec_type"))
            && codec.equals(s.get("codec_name"))), "a " + codec + " video stream: " + sections);
        double duration = sections.stream().filter(s -> s.containsKey("format_name"))
            .mapToDouble(s -> Double.parseDouble(s.get("duration"))).findFirst().orElseThrow();
        assertEquals(seconds, duration, 0.1, "the clip's duration: " + sections);
    }

    /** A reader that stops after 100 bytes, as {@code | head -c 100} does: the pipe breaks under the writer. */
    @Test
    void aReaderThatLeavesEarlyEndsTheStreamQuietly() {
        OutputStream head = new OutputStream() {
            private long taken;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (taken >= 100) {
                    throw new IOException("Broken pipe");
                }
                taken += len;
            }
        };

        int exit = rondoWithStdout(head, "play", url(RondoUnderTest.CLIP), "-o", "-");

        assertEquals(0, exit, "the reader leaving is how a pipe ends: " + stderr);
        String errors = stderr.toString();
        assertTrue(errors.contains("rondo play: the reader of standard output left, so the stream was closed"), errors);
        assertFalse(errors.contains("\tat ") || errors.contains("Exception"), "no stack trace: " + errors);
    }

    /** ffprobe's sections, each as its key=value lines: the streams, then the format. */
    private static List<Map<String, String>> ffprobe(Path ffprobe, Path media) throws Exception {
        Process process = new ProcessBuilder(ffprobe.toString(), "-v", "error", "-show_format", "-show_streams",
            media.toString()).redirectError(ProcessBuilder.Redirect.PIPE).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "ffprobe finished");
        assertEquals(0, process.exitValue(), "ffprobe read the output: " + err);
        assertEquals("", err.strip(), "ffprobe found no errors in the output");
        List<Map<String, String>> sections = new ArrayList<>();
        Map<String, String> section = null;
        for (String line : out.split("\\R")) {
            if (line.matches("\\[[A-Z]+\\]")) {
                section = new HashMap<>();
                sections.add(section);
            } else if (section != null && line.contains("=")) {
                section.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
            }
        }
        return sections;
    }
}

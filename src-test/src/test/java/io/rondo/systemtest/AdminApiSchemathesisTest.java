package io.rondo.systemtest;

import io.rondo.client.StreamClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The admin API fuzzed from its own OpenAPI document by schemathesis: {@code rondo serve} runs in
 * a JVM of its own on free ports with a fresh library (the demo library, emulated disks) and a
 * client playing the demo clip, and schemathesis reads {@code /api/v1/openapi.yaml} from it and
 * sends it what the document allows and what it does not, with the admin token, under every check
 * it has: no 5xx, every status, Content-Type, header and body as documented, invalid input
 * refused, valid input taken, the token enforced, and a stream it ended gone; after it all the
 * server still stops cleanly on SIGTERM. A fixed seed keeps the run repeatable;
 * {@code -Drondo.schemathesis.seed=N} draws another. Its report goes to {@code target/schemathesis/}.
 *
 * <p>Every operation is fuzzed, uploads and deletions of objects included: they change the
 * library the other operations read (a demo object deleted or renamed is 404 from then on, as
 * documented), so a run's requests depend on the seed but every answer is one the document
 * allows. {@code schemathesis.toml} beside this class says where a check is told what the
 * document says and a schema cannot: why a request that looks valid is refused.
 *
 * <p>Needs schemathesis ({@code -Drondo.schemathesis=PATH} or on the PATH); skipped, saying so,
 * where it is missing, unless {@code rondo.schemathesis.required} is set (as {@code .ci/run}
 * sets it, having installed it).
 */
class AdminApiSchemathesisTest {

    /** The version {@code .ci/run} installs, whose checks and flags this test was written against. */
    private static final String VERSION = "4.32.5";
    private static final Duration START_LIMIT = Duration.ofSeconds(90);
    private static final Duration RUN_LIMIT = Duration.ofMinutes(10);
    private static final Path REPORT = Path.of("target", "schemathesis");
    private static final Pattern ADMIN_URL = Pattern.compile("admin API at (https?://\\S+?)/api/v1/");
    private static final Pattern STREAM_URL = Pattern.compile("rondo://([^\\s/]+):([0-9]+)/");
    /** The demo library's clip, long enough to play through the run. */
    private static final String CLIP = "/videos/test-pattern.webm";

    @TempDir
    Path temp;

    @Test
    void schemathesisFindsNoServerErrorAndNoResponseTheDocumentDoesNotDescribe() throws Exception {
        Optional<Path> schemathesis = Optional.ofNullable(System.getProperty("rondo.schemathesis")).map(Path::of)
            .filter(Files::isExecutable).or(() -> RondoUnderTest.onPath("schemathesis"));
        String missing = "schemathesis is not installed: install it (python3 -m venv DIR; DIR/bin/pip install "
            + "schemathesis==" + VERSION + ") and put it on the PATH or pass -Drondo.schemathesis=DIR/bin/schemathesis "
            + "(.ci/run does) to fuzz the admin API";
        if (Boolean.getBoolean("rondo.schemathesis.required")) {
            assertTrue(schemathesis.isPresent(), missing);
        }
        assumeTrue(schemathesis.isPresent(), missing);
        Files.createDirectories(REPORT);
        try (ServedRondo rondo = ServedRondo.start(temp.resolve("data"), REPORT.resolve("serve.log"));
             StreamClient client = StreamClient.connect(rondo.streamHost, rondo.streamPort)) {
            client.open(CLIP, 0, RondoUnderTest.PROFILE);
            Thread player = new Thread(() -> play(client), "demo-clip-player");
            player.setDaemon(true);
            player.start();
            Path config = temp.resolve("schemathesis.toml");
            try (InputStream in = AdminApiSchemathesisTest.class.getResourceAsStream("schemathesis.toml")) {
                Files.copy(in, config);
            }
            List<String> command = List.of(schemathesis.get().toString(), "--no-color",
                "--config-file", config.toString(),
                "run", rondo.adminUrl + "/api/v1/openapi.yaml",
                "--url", rondo.adminUrl,
                "-H", "Authorization: Bearer " + rondo.adminToken,
                "--max-examples", "20",
                "--workers", "1",
                "--seed", System.getProperty("rondo.schemathesis.seed", "20261123"),
                "--request-timeout", "10",
                "--report", "junit",
                "--report-dir", REPORT.toAbsolutePath().toString());
            Path output = REPORT.resolve("output.txt");
            Process run = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
            if (!run.waitFor(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                run.destroyForcibly().waitFor();
                fail("schemathesis did not finish within " + RUN_LIMIT + ":\n" + tail(output));
            }
            assertEquals(0, run.exitValue(), "schemathesis found responses the OpenAPI document does not describe "
                + "(the whole output is in " + output.toAbsolutePath() + "):\n" + tail(output));
            String last = rondo.stop();
            assertTrue(last.startsWith("Rondo stopped"), "after the run SIGTERM stops the server cleanly; its last "
                + "line: " + last);
        }
    }

    /** Reads the clip's fragments as they come, until it ends or an operator ends it. */
    private static void play(StreamClient client) {
        try {
            while (client.nextData() != null) {
                continue;
            }
        } catch (IOException e) {
            // Ended by DELETE /api/v1/streams/{id}, or the server stopped: either way the playing is over.
            return;
        }
    }

    /** The end of schemathesis' output: its failures, each with a curl command to reproduce it, and a summary. */
    private static String tail(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 400), lines.size()));
    }

    /**
     * {@code rondo serve} in a child JVM with this test's class path and Chronicle Map's JVM flags:
     * HTTP, the stream protocol and the admin port on ports the kernel picks, emulated disks (no
     * profiling at start), and the admin token it writes at its first start. It is stopped with
     * SIGTERM, as an operator stops the server.
     */
    private static final class ServedRondo implements AutoCloseable {

        final Process process;
        final Thread output;
        final List<String> lines;
        final String adminUrl;
        final String adminToken;
        final String streamHost;
        final int streamPort;

        private ServedRondo(Process process, Thread output, List<String> lines, String adminUrl, String adminToken,
                            Matcher streamUrl) {
            this.process = process;
            this.output = output;
            this.lines = lines;
            this.adminUrl = adminUrl;
            this.adminToken = adminToken;
            this.streamHost = streamUrl.group(1);
            this.streamPort = Integer.parseInt(streamUrl.group(2));
        }

        static ServedRondo start(Path data, Path log) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(chronicleFlags());
            command.addAll(List.of("-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "io.rondo.server.cli.RondoCommand", "serve", "--data", data.toString(), "--port", "0",
                "--stream-port", "0", "--admin-port", "0", "--emulate"));
            Files.deleteIfExists(log);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            List<String> lines = new ArrayList<>();
            Thread reader = new Thread(() -> copyLines(process.getInputStream(), lines, log), "rondo-serve-output");
            reader.setDaemon(true);
            reader.start();
            boolean serving = false;
            try {
                String url = await("rondo serve prints its admin address").atMost(START_LIMIT)
                    .until(() -> adminUrl(lines, process), Optional::isPresent).orElseThrow();
                String token = Files.readString(data.resolve("rondo").resolve("admin.token"), StandardCharsets.UTF_8)
                    .strip();
                Matcher streamUrl;
                synchronized (lines) {
                    streamUrl = STREAM_URL.matcher(String.join("\n", lines));
                }
                assertTrue(streamUrl.find(), "rondo serve prints its rondo:// address");
                serving = true;
                return new ServedRondo(process, reader, lines, url, token, streamUrl);
            } finally {
                if (!serving) {
                    process.destroyForcibly();
                }
            }
        }

        private static Optional<String> adminUrl(List<String> lines, Process process) {
            synchronized (lines) {
                for (String line : lines) {
                    Matcher matcher = ADMIN_URL.matcher(line);
                    if (matcher.find()) {
                        return Optional.of(matcher.group(1));
                    }
                }
                if (!process.isAlive()) {
                    fail("rondo serve exited with " + process.exitValue() + ":\n" + String.join("\n", lines));
                }
            }
            return Optional.empty();
        }

        /** Keeps the server's output for the test and in {@code log}, for a person reading a failure. */
        private static void copyLines(InputStream in, List<String> lines, Path log) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    Files.writeString(log, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The flags this JVM runs Chronicle Map with (the parent pom's rondo.jvm.flags), for the server's JVM. */
        private static List<String> chronicleFlags() {
            return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(flag -> Stream.of("--add-exports", "--add-opens", "-Dchronicle.").anyMatch(flag::startsWith))
                .collect(Collectors.toList());
        }

        /**
         * Sends SIGTERM (leaving the server's output open, so its last lines are read) and waits for
         * the server to exit; returns its last line.
         */
        String stop() throws InterruptedException {
            process.toHandle().destroy();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "rondo serve exits within 30 s of SIGTERM");
            output.join(TimeUnit.SECONDS.toMillis(5));
            synchronized (lines) {
                return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
            }
        }

        /** Kills the server if the test ended before {@link #stop}. */
        @Override
        public void close() {
            process.toHandle().destroyForcibly();
        }
    }
}

package io.rondo.systemtest;

import io.rondo.client.StreamClient;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.launch.RondoJvm;
import io.rondo.server.launch.ServeProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

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
    private static final Duration STOP_LIMIT = Duration.ofSeconds(30);
    private static final Duration RUN_LIMIT = Duration.ofMinutes(10);
    private static final Path REPORT = Path.of("target", "schemathesis");
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
        try (ServeProcess rondo = ServeProcess.start(RondoJvm.thisClassPath(List.of("-Xmx1g")), temp.resolve("data"),
                 true, REPORT.resolve("serve.log"), START_LIMIT, SystemClocks.nanoClock());
             StreamClient client = StreamClient.connect(rondo.host(), rondo.streamPort())) {
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
                "run", rondo.adminUrl() + "/api/v1/openapi.yaml",
                "--url", rondo.adminUrl(),
                "-H", "Authorization: Bearer " + rondo.adminToken(),
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
            assertTrue(rondo.stop(STOP_LIMIT), "rondo serve exits within 30 s of SIGTERM");
            List<String> printed = rondo.printed().lines().toList();
            String last = printed.isEmpty() ? "" : printed.get(printed.size() - 1);
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
}

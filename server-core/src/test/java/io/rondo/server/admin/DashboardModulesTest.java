package io.rondo.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin dashboard's modules under Node's own test runner: the event stream's parser and its
 * reconnecting feed, the rounds the slack chart keeps, the figures' formats, the policy form's
 * merge patch, the API's requests and problems, and the served file set, each tested in
 * {@code src/test/js/dashboard/*.test.mjs} straight from the resources folder, without a browser.
 * The dashboard has no build step and no npm, so these need only a {@code node} on the PATH; the
 * whole dashboard in a browser against a running server is src-test's
 * {@code DashboardBrowserTest}.
 *
 * <p>Where no node is installed the test is skipped, saying so; {@code .ci/run} installs Debian's
 * nodejs and sets {@code -Drondo.node.required=true}, under which a missing node fails instead.
 */
class DashboardModulesTest {

    private static final Path TESTS = Path.of("src", "test", "js", "dashboard");
    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final Pattern SUMMARY = Pattern.compile("(?m)^# (pass|fail) (\\d+)$");

    @Test
    void theDashboardsModulesPassTheirTestsUnderNode(@TempDir Path temp) throws Exception {
        Optional<Path> node = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, "node")).filter(Files::isExecutable).findFirst();
        String missing = "no node on the PATH: install Debian's nodejs (.ci/run does) to run the dashboard's "
            + "module tests";
        if (Boolean.getBoolean("rondo.node.required")) {
            assertTrue(node.isPresent(), missing);
        }
        assumeTrue(node.isPresent(), missing);

        List<String> command = new ArrayList<>(List.of(node.get().toString(), "--test", "--test-reporter=tap"));
        try (Stream<Path> files = Files.list(TESTS)) {
            files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".test.mjs")).sorted()
                .forEach(command::add);
        }
        assertTrue(command.size() > 3, "no *.test.mjs in " + TESTS.toAbsolutePath());
        Path output = temp.resolve("node-test.txt");
        Process run = new ProcessBuilder(command).directory(TESTS.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        if (!run.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            run.destroyForcibly().waitFor();
            fail("node --test did not finish within " + LIMIT.toSeconds() + " s:\n" + read(output));
        }
        String report = read(output);
        assertEquals(0, run.exitValue(), "the dashboard's module tests failed under node --test:\n" + report);
        int passed = -1;
        int failed = -1;
        for (Matcher line = SUMMARY.matcher(report); line.find(); ) {
            if (line.group(1).equals("pass")) {
                passed = Integer.parseInt(line.group(2));
            } else {
                failed = Integer.parseInt(line.group(2));
            }
        }
        assertEquals(0, failed, "node --test printed no summary, or counted failures:\n" + report);
        assertTrue(passed > 0, "node --test ran no test:\n" + report);
    }

    private static String read(Path output) throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }
}

package io.rondo.client;

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
 * The web player's modules under Node's own test runner: the start rule, the buffer accounting,
 * the units, the protocol's frames, a connection's stream and the shipped file list, each tested
 * in {@code src/test/js/*.test.mjs} straight from the resources folder, without a browser. The
 * player has no build step and no npm, so these tests need only a {@code node} on the PATH; the
 * whole player in a browser is src-test's {@code PlayerBrowserTest}.
 *
 * <p>Where no node is installed the test is skipped, saying so; {@code .ci/run} installs Debian's
 * nodejs and sets {@code -Drondo.node.required=true}, under which a missing node fails instead.
 */
class PlayerModulesTest {

    private static final Path TESTS = Path.of("src", "test", "js");
    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final Pattern PASSED = Pattern.compile("(?m)^# pass (\\d+)$");
    private static final Pattern FAILED = Pattern.compile("(?m)^# fail (\\d+)$");

    @Test
    void thePlayersModulesPassTheirTestsUnderNode(@TempDir Path temp) throws Exception {
        Optional<Path> node = onPath("node");
        String missing = "no node on the PATH: install Debian's nodejs (.ci/run does) to run the player's module tests";
        if (Boolean.getBoolean("rondo.node.required")) {
            assertTrue(node.isPresent(), missing);
        }
        assumeTrue(node.isPresent(), missing);

        List<String> command = new ArrayList<>(List.of(node.get().toString(), "--test", "--test-reporter=tap"));
        command.addAll(testFiles());
        Path output = temp.resolve("node-test.txt");
        Process run = new ProcessBuilder(command).directory(TESTS.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        if (!run.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            run.destroyForcibly().waitFor();
            fail("node --test did not finish within " + LIMIT.toSeconds() + " s:\n" + read(output));
        }
        String report = read(output);
        assertEquals(0, run.exitValue(), "the player's module tests failed under node --test:\n" + report);
        assertEquals("0", count(FAILED, report), report);
        assertTrue(Integer.parseInt(count(PASSED, report)) > 0, "node --test ran no test:\n" + report);
    }

    /** The test files, by name, in a fixed order. */
    private static List<String> testFiles() throws IOException {
        try (Stream<Path> files = Files.list(TESTS)) {
            List<String> names = files.map(file -> file.getFileName().toString())
                .filter(name -> name.endsWith(".test.mjs")).sorted().toList();
            assertTrue(!names.isEmpty(), "no *.test.mjs in " + TESTS.toAbsolutePath());
            return names;
        }
    }

    private static Optional<Path> onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(Pattern.quote(File.pathSeparator)))
            .filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, program)).filter(Files::isExecutable).findFirst();
    }

    private static String count(Pattern line, String report) {
        Matcher matcher = line.matcher(report);
        assertTrue(matcher.find(), "node --test printed no summary:\n" + report);
        return matcher.group(1);
    }

    private static String read(Path output) throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }
}

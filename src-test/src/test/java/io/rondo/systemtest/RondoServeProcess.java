package io.rondo.systemtest;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo serve} in a JVM of its own, as a person starts it, on a data folder the test
 * filled: emulated paper disks, and the HTTP, stream and admin ports on 127.0.0.1 where the kernel
 * picks. Its addresses are read from what it prints, and the admin token from the file it writes
 * on its first start. Closing it stops it as Ctrl-C does.
 */
final class RondoServeProcess implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(20);
    private static final Pattern HTTP = Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/ and rondo://");
    private static final Pattern STREAMS = Pattern.compile("and rondo://127\\.0\\.0\\.1:(\\d+)/");
    private static final Pattern ADMIN = Pattern.compile("admin API at (http://127\\.0\\.0\\.1:\\d+)/api/v1/");

    private final Process process;
    private final Path data;
    private final Path output;
    private final String adminUrl;
    private final int streamPort;
    private final int httpPort;

    private RondoServeProcess(Process process, Path data, Path output, String adminUrl, int streamPort,
                              int httpPort) {
        this.process = process;
        this.data = data;
        this.output = output;
        this.adminUrl = adminUrl;
        this.streamPort = streamPort;
        this.httpPort = httpPort;
    }

    /** Serves the library in {@code data}, printing to {@code output}; returns once the admin port is up. */
    static RondoServeProcess start(Path data, Path output) throws IOException {
        return start(data, output, List.of());
    }

    /**
     * Serves the library in {@code data} in a JVM started with {@code jvmFlags} (e.g. its heap
     * limit), printing to {@code output}; returns once the admin port is up.
     */
    static RondoServeProcess start(Path data, Path output, List<String> jvmFlags) throws IOException {
        List<String> command = rondo(jvmFlags);
        command.addAll(List.of("serve", "--data", data.toString(), "--emulate", "--port", "0", "--stream-port", "0",
            "--admin-port", "0"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        Matcher[] found = new Matcher[3];
        try {
            await("rondo serve prints its admin address").atMost(START_LIMIT).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    assertTrue(process.isAlive(), "rondo serve stopped:\n" + read(output));
                    String printed = read(output);
                    found[0] = STREAMS.matcher(printed);
                    found[1] = ADMIN.matcher(printed);
                    found[2] = HTTP.matcher(printed);
                    return found[0].find() && found[1].find() && found[2].find();
                });
        } catch (RuntimeException | AssertionError e) {
            process.destroyForcibly();
            throw e;
        }
        return new RondoServeProcess(process, data, output, found[1].group(1), Integer.parseInt(found[0].group(1)),
            Integer.parseInt(found[2].group(1)));
    }

    /**
     * The command line that runs {@code rondo} in a JVM of its own with {@code jvmFlags}, this
     * JVM's classpath and module openings and the repository's configuration folder: append the
     * subcommand and its arguments.
     */
    static List<String> rondo(List<String> jvmFlags) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(flag -> flag.startsWith("--add-")).forEach(command::add);
        String configDir = System.getProperty("rondo.config.dir");
        if (configDir != null) {
            command.add("-Drondo.config.dir=" + configDir);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.rondo.server.cli.RondoCommand"));
        return command;
    }

    /** The admin port's base URL, {@code http://127.0.0.1:PORT}. */
    String adminUrl() {
        return adminUrl;
    }

    int streamPort() {
        return streamPort;
    }

    int httpPort() {
        return httpPort;
    }

    /** The admin token {@code rondo serve} wrote to its first storage root. */
    String adminToken() throws IOException {
        return Files.readString(data.resolve("rondo").resolve("admin.token"), StandardCharsets.UTF_8).strip();
    }

    /** What the server printed so far. */
    String printed() throws IOException {
        return read(output);
    }

    /** Stops the server as Ctrl-C does (SIGTERM), and forcibly if it has not stopped within 20 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String read(Path output) throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }
}

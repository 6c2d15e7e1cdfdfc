package io.rondo.server.launch;

import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rondo serve} in a JVM of its own, as a person starts it, on a data folder of the caller's:
 * the HTTP, stream and admin ports on 127.0.0.1 where the kernel picks, read back from what it
 * prints, and the admin token from the file it writes on its first start. Closing it stops it as
 * Ctrl-C does. {@code rondo bench} measures the server this way, apart from the load, and the
 * system tests run it this way.
 */
public final class ServeProcess implements AutoCloseable {

    private static final Duration STOP_LIMIT = Duration.ofSeconds(20);
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final Pattern SERVING = Pattern.compile(
        "Rondo serving \\d+ objects from \\d+ disks? at http://([^/]+):(\\d+)/ and rondo://[^/]+:(\\d+)/");
    private static final Pattern ADMIN = Pattern.compile("admin API at (https?://[^ ]+)/api/v1/");

    private final Process process;
    private final Path data;
    private final Path output;
    private final String host;
    private final int httpPort;
    private final int streamPort;
    private final String adminUrl;

    private ServeProcess(Process process, Path data, Path output, Matcher serving, Matcher admin) {
        this.process = process;
        this.data = data;
        this.output = output;
        this.host = serving.group(1);
        this.httpPort = Integer.parseInt(serving.group(2));
        this.streamPort = Integer.parseInt(serving.group(3));
        this.adminUrl = admin.group(1);
    }

    /**
     * Serves the library in {@code data} on 127.0.0.1, every port the kernel's pick, and returns
     * once it says where it serves.
     *
     * @param rondo how to start rondo: rondo.jar or this JVM's class path, with its JVM's flags
     * @param data the data folder
     * @param emulate true for the emulated paper disks, false for the disks {@code data} is on
     * @param output where everything it prints goes
     * @param startLimit how long it may take to say where it serves
     * @param clock the clock {@code startLimit} is counted on
     * @throws IOException if it stops or says nothing within {@code startLimit} (what it printed is in the message)
     */
    public static ServeProcess start(RondoJvm rondo, Path data, boolean emulate, Path output, Duration startLimit,
                                     NanoClock clock) throws IOException {
        return start(rondo, data, emulate, List.of("--address", "127.0.0.1", "--port", "0", "--stream-port", "0",
            "--admin-port", "0"), output, startLimit, clock);
    }

    /**
     * Serves the library in {@code data} as node {@code node} of the cluster {@code config} lists, on
     * the address and ports of its entry, and returns once it says where it serves.
     *
     * @throws IOException if it stops or says nothing within {@code startLimit} (what it printed is in the message)
     */
    public static ServeProcess startNode(RondoJvm rondo, Path data, Path config, String node, boolean emulate,
                                         Path output, Duration startLimit, NanoClock clock) throws IOException {
        return start(rondo, data, emulate, List.of("--config", config.toString(), "--node", node), output,
            startLimit, clock);
    }

    private static ServeProcess start(RondoJvm rondo, Path data, boolean emulate, List<String> options, Path output,
                                      Duration startLimit, NanoClock clock) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("serve", "--data", data.toString()));
        arguments.addAll(options);
        if (emulate) {
            arguments.add("--emulate");
        }
        Process process = new ProcessBuilder(rondo.command(arguments)).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        long giveUpNs = clock.nanoTime() + startLimit.toNanos();
        while (true) {
            String printed = read(output);
            Matcher serving = SERVING.matcher(printed);
            Matcher admin = ADMIN.matcher(printed);
            if (serving.find() && admin.find()) {
                return new ServeProcess(process, data, output, serving, admin);
            }
            boolean stopped = !process.isAlive();
            if (stopped || clock.nanoTime() - giveUpNs > 0) {
                process.destroyForcibly();
                throw new IOException("rondo serve " + (stopped ? "stopped (exit " + process.exitValue() + ")"
                    : "did not start within " + startLimit.toSeconds() + " s") + ":\n" + printed);
            }
            LockSupport.parkNanos(POLL_NS);
            if (Thread.interrupted()) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while rondo serve started");
            }
        }
    }

    /** The host it listens on: 127.0.0.1. */
    public String host() {
        return host;
    }

    /** Its HTTP port. */
    public int httpPort() {
        return httpPort;
    }

    /** Its HTTP base URL, {@code http://127.0.0.1:PORT/}. */
    public String httpUrl() {
        return "http://" + host + ":" + httpPort + "/";
    }

    /** Its stream-protocol port. */
    public int streamPort() {
        return streamPort;
    }

    /** Its admin base URL, {@code http://127.0.0.1:PORT}. */
    public String adminUrl() {
        return adminUrl;
    }

    /** The admin token it wrote to its first storage root. */
    public String adminToken() throws IOException {
        return Files.readString(data.resolve("rondo").resolve("admin.token"), StandardCharsets.UTF_8).strip();
    }

    /** The process, for its pid and CPU time. */
    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** What it printed so far. */
    public String printed() throws IOException {
        return read(output);
    }

    /**
     * Stops it as Ctrl-C does (SIGTERM), without forcing it: what it prints as it stops is in
     * {@link #printed()} once this returns true.
     *
     * @return true if it exited within {@code limit}
     */
    public boolean stop(Duration limit) throws InterruptedException {
        process.destroy();
        return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Kills it as {@code kill -9} does: no chance to close anything. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Stops it as Ctrl-C does (SIGTERM), and forcibly if it has not stopped within 20 s. */
    @Override
    public void close() {
        ChildProcesses.stop(process, STOP_LIMIT);
    }

    private static String read(Path output) throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }
}

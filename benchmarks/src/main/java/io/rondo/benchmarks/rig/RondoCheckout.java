package io.rondo.benchmarks.rig;

import io.rondo.server.launch.RondoJvm;
import io.rondo.server.launch.ServeProcess;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Rondo a bench run measures: the checkout's rondo.jar (or another build's), run with the
 * checkout's configuration as a person runs it, in a JVM of its own ({@link ServeProcess}), apart
 * from the load, as nginx is, and on the disk the bench runs on unless the caller asks for the
 * emulated paper disk.
 */
public final class RondoCheckout {

    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration INGEST_LIMIT = Duration.ofMinutes(10);

    private RondoCheckout() {
    }

    /**
     * Where Rondo's checkout is: {@code -Drondo.home} (the launcher sets it), else the working
     * folder. rondo.jar is under it at {@code server-core/target/rondo.jar}, the configuration at
     * {@code config/}.
     */
    public static Path home() {
        return Path.of(System.getProperty("rondo.home", "")).toAbsolutePath();
    }

    /** rondo.jar, built by {@code ./rondo} or {@code mvn package}. */
    public static Path jar() {
        return home().resolve("server-core").resolve("target").resolve("rondo.jar");
    }

    /**
     * Copies {@code files} into the library in {@code data} with {@code rondo ingest}, each named by
     * its file name.
     *
     * @throws IOException if rondo.jar is missing or the ingest fails (its output is in the message)
     */
    public static void ingest(Path data, List<Path> files, Path output) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("ingest", "--data", data.toString(), "--quiet"));
        files.forEach(file -> arguments.add(file.toString()));
        Process process = new ProcessBuilder(rondo(jar(), List.of()).command(arguments)).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        try {
            if (!process.waitFor(INGEST_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("rondo ingest took over " + INGEST_LIMIT.toMinutes() + " minutes");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during rondo ingest", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("rondo ingest failed (exit " + process.exitValue() + "):\n"
                + Files.readString(output, StandardCharsets.UTF_8));
        }
    }

    /**
     * Serves the library in {@code data} with the checkout's rondo.jar; see {@link #serve(Path, Path,
     * boolean, List, Path, NanoClock)}.
     */
    public static ServeProcess serve(Path data, boolean emulate, List<String> javaOptions, Path output,
                                     NanoClock clock) throws IOException {
        return serve(jar(), data, emulate, javaOptions, output, clock);
    }

    /**
     * Serves the library in {@code data} with {@code jar} on 127.0.0.1, every port the kernel's
     * pick, and returns once it says it serves.
     *
     * @param emulate true for the emulated paper disk, false for the disk {@code data} is on
     * @param javaOptions extra flags for the server's JVM, e.g. {@code -Xmx2g}
     * @param output where its output goes
     * @param clock the clock its start is timed on
     * @throws IOException if the jar is missing or the server does not start (its output is in the message)
     */
    public static ServeProcess serve(Path jar, Path data, boolean emulate, List<String> javaOptions, Path output,
                                     NanoClock clock) throws IOException {
        return ServeProcess.start(rondo(jar, javaOptions), data, emulate, output, START_LIMIT, clock);
    }

    /**
     * Serves the library in {@code data} with the checkout's rondo.jar as node {@code node} of the
     * cluster {@code config} lists, on the emulated paper disks, and returns once it says it serves.
     *
     * @throws IOException if the jar is missing or the node does not start (its output is in the message)
     */
    public static ServeProcess serveNode(Path data, Path config, String node, Path output, NanoClock clock)
        throws IOException {
        return ServeProcess.startNode(rondo(jar(), List.of()), data, config, node, true, output, START_LIMIT, clock);
    }

    private static RondoJvm rondo(Path jar, List<String> javaOptions) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IOException(jar + " is missing: build it with ./rondo --help (or mvn -B -DskipTests -pl "
                + "server-core -am package), or point -Drondo.home at a checkout that has it");
        }
        return RondoJvm.jar(jar, home().resolve("config"), javaOptions);
    }
}

package io.rondo.benchmarks.rig;

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
 * {@code rondo serve} in a JVM of its own, as a person runs it, on a data folder of the run's: the
 * server is measured apart from the load, as nginx is, and on the disk the bench runs on (its
 * measured profile, unless the caller asks for the emulated paper disk). Its ports are the
 * kernel's picks, read from what it prints. Closing it stops it as Ctrl-C does.
 */
public final class RondoProcess implements AutoCloseable {

    /** The JVM flags rondo.jar needs on Java 17 (the launcher's and the parent pom's rondo.jvm.flags). */
    static final List<String> JVM_FLAGS = List.of(
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "-Dchronicle.analytics.disable=true",
        "-Djava.awt.headless=true");

    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration INGEST_LIMIT = Duration.ofMinutes(10);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(20);
    private static final Pattern SERVING = Pattern.compile(
        "Rondo serving \\d+ objects from \\d+ disks? at http://([^/]+):(\\d+)/ and rondo://[^/]+:(\\d+)/");
    private static final Pattern ADMIN = Pattern.compile("admin API at (https?://[^ ]+)/api/v1/");

    private final Process process;
    private final Path output;
    private final String host;
    private final int httpPort;
    private final int streamPort;
    private final String adminUrl;

    private RondoProcess(Process process, Path output, String host, int httpPort, int streamPort, String adminUrl) {
        this.process = process;
        this.output = output;
        this.host = host;
        this.httpPort = httpPort;
        this.streamPort = streamPort;
        this.adminUrl = adminUrl;
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
        List<String> command = java();
        command.addAll(List.of("ingest", "--data", data.toString(), "--quiet"));
        files.forEach(file -> command.add(file.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
            .start();
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
     * Serves the library in {@code data} on 127.0.0.1, every port the kernel's pick, and returns
     * once it says it serves.
     *
     * @param data the data folder (one disk)
     * @param emulate true for the emulated paper disk, false for the disk {@code data} is on
     * @param javaOptions extra flags for the server's JVM, e.g. {@code -Xmx2g}
     * @param output where its output goes
     * @throws IOException if it does not start (its output is in the message)
     */
    public static RondoProcess serve(Path data, boolean emulate, List<String> javaOptions, Path output)
        throws IOException {
        return serve(jar(), data, emulate, javaOptions, output);
    }

    /** As {@link #serve(Path, boolean, List, Path)}, with the server of another build's rondo.jar. */
    public static RondoProcess serve(Path jar, Path data, boolean emulate, List<String> javaOptions, Path output)
        throws IOException {
        List<String> command = java(jar, javaOptions);
        command.addAll(List.of("serve", "--data", data.toString(), "--address", "127.0.0.1", "--port", "0",
            "--stream-port", "0", "--admin-port", "0"));
        if (emulate) {
            command.add("--emulate");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
            .start();
        long giveUpNs = System.nanoTime() + START_LIMIT.toNanos();
        while (true) {
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            Matcher serving = SERVING.matcher(printed);
            Matcher admin = ADMIN.matcher(printed);
            if (serving.find() && admin.find()) {
                return new RondoProcess(process, output, serving.group(1), Integer.parseInt(serving.group(2)),
                    Integer.parseInt(serving.group(3)), admin.group(1));
            }
            if (!process.isAlive() || System.nanoTime() - giveUpNs > 0) {
                process.destroyForcibly();
                throw new IOException("rondo serve did not start:\n" + printed);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            if (Thread.interrupted()) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while rondo serve started");
            }
        }
    }

    private static List<String> java() throws IOException {
        return java(jar(), List.of());
    }

    private static List<String> java(Path jar, List<String> javaOptions) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IOException(jar + " is missing: build it with ./rondo --help (or mvn -B -DskipTests -pl "
                + "server-core -am package), or point -Drondo.home at a checkout that has it");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_FLAGS);
        command.add("-Drondo.config.dir=" + home().resolve("config"));
        command.addAll(javaOptions);
        command.addAll(List.of("-jar", jar.toString()));
        return command;
    }

    /** Its HTTP base URL, {@code http://127.0.0.1:PORT/}. */
    public String httpUrl() {
        return "http://" + host + ":" + httpPort + "/";
    }

    /** The host it listens on. */
    public String host() {
        return host;
    }

    /** Its HTTP port. */
    public int httpPort() {
        return httpPort;
    }

    /** Its stream-protocol port. */
    public int streamPort() {
        return streamPort;
    }

    /** Its admin base URL, {@code http://127.0.0.1:PORT}. */
    public String adminUrl() {
        return adminUrl;
    }

    /** The process, for its pid and CPU time. */
    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** What it printed so far. */
    public String printed() throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    /** Stops it as Ctrl-C does (SIGTERM), and forcibly if it has not stopped within 20 s. */
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
}

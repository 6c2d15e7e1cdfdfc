package io.rondo.benchmarks.load.greedy;

import io.rondo.benchmarks.load.paced.DelayLog;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The greedy readers of a phase, each on a file of its own as papers/002's "separate files", in
 * a {@link GreedyLoad} process under {@code nice}, so that on a machine of few cores they do not
 * delay the measuring JVM's own threads.
 */
public final class GreedyProcess {

    /** How long past the phase's end the greedy readers' process may take to stop and write its results. */
    private static final long STOP_NS = TimeUnit.SECONDS.toNanos(30);

    private final DelayLog log = new DelayLog();
    private final Process process;
    private final Path work;
    private final Path results;
    private final long endNs;
    private final NanoClock clock;
    private long bytes;
    private long elapsedNs;

    /**
     * Starts one reader a path on {@code host:port}, reading until {@code endNs} on {@code clock}.
     *
     * @param nice the process's nice level, 0 to 19
     * @param work where their results and log go, named after {@code phase}
     * @param paths the URL paths, one a reader, each read whole again and again
     */
    public GreedyProcess(int nice, Path work, String host, int port, List<String> paths, long endNs, String phase,
                         NanoClock clock) throws IOException {
        this.work = work;
        this.endNs = endNs;
        this.clock = clock;
        this.results = work.resolve("greedy-" + phase + ".txt");
        Files.deleteIfExists(results);
        List<String> command = new ArrayList<>(List.of("nice", "-n", Integer.toString(nice),
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
            System.getProperty("java.class.path"), GreedyLoad.class.getName(), host, Integer.toString(port),
            Long.toString(Math.max(0, endNs - clock.nanoTime())), results.toString()));
        command.addAll(paths);
        process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(work.resolve("greedy-" + phase + ".log").toFile()).start();
    }

    /** Their service times, once {@link #stop} has read them. */
    public DelayLog log() {
        return log;
    }

    /** Body bytes they received, once {@link #stop} has read them. */
    public long bytes() {
        return bytes;
    }

    /** How long they read, once {@link #stop} has read it. */
    public long elapsedNs() {
        return elapsedNs;
    }

    /** Waits for the process, which stops by itself at the phase's end, and reads what it saw. */
    public void stop() throws InterruptedException, IOException {
        long waitNs = Math.max(0, endNs - clock.nanoTime()) + STOP_NS;
        if (!process.waitFor(waitNs, TimeUnit.NANOSECONDS)) {
            process.destroyForcibly();
            throw new IOException("the greedy readers did not stop; see " + work.resolve("greedy-*.log"));
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(results)) {
            throw new IOException("the greedy readers failed (exit " + process.exitValue() + "); see "
                + work.resolve("greedy-*.log"));
        }
        GreedyLoad.Read read = GreedyLoad.Read.into(results, log);
        bytes = read.bytes();
        elapsedNs = read.elapsedNs();
    }
}

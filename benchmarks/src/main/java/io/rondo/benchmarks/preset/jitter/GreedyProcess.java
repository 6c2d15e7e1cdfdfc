package io.rondo.benchmarks.preset.jitter;

import io.rondo.benchmarks.load.greedy.GreedyLoad;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.benchmarks.rig.FileSet;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The greedy readers of a phase, each on a file of its own as papers/002's "separate files", in
 * a {@link GreedyLoad} process under {@code nice -n --greedy-nice}.
 */
final class GreedyProcess {

    /** How long past the phase's end the greedy readers' process may take to stop and write its results. */
    private static final long STOP_NS = 30 * JitterSettings.SECOND_NS;

    private final DelayLog log = new DelayLog();
    private final Process process;
    private final Path work;
    private final Path results;
    private final long endNs;
    private final NanoClock clock;
    private long bytes;
    private long elapsedNs;

    /**
     * Starts the readers on {@code host:port}, reading until {@code endNs} on {@code clock}.
     *
     * @param work where their results and log go, named after {@code phase}
     */
    GreedyProcess(JitterSettings s, Path work, String host, int port, FileSet big, long endNs, String phase,
                  NanoClock clock) throws IOException {
        this.work = work;
        this.endNs = endNs;
        this.clock = clock;
        this.results = work.resolve("greedy-" + phase + ".txt");
        Files.deleteIfExists(results);
        List<String> command = new ArrayList<>(List.of("nice", "-n", Integer.toString(s.greedyNice()),
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
            System.getProperty("java.class.path"), GreedyLoad.class.getName(), host, Integer.toString(port),
            Long.toString(Math.max(0, endNs - clock.nanoTime())), results.toString()));
        for (int i = 0; i < s.greedy(); i++) {
            command.add("/" + big.names().get(i % big.count()));
        }
        process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(work.resolve("greedy-" + phase + ".log").toFile()).start();
    }

    /** Their service times, once {@link #stop} has read them. */
    DelayLog log() {
        return log;
    }

    long bytes() {
        return bytes;
    }

    long elapsedNs() {
        return elapsedNs;
    }

    /** Waits for the process, which stops by itself at the phase's end, and reads what it saw. */
    void stop() throws InterruptedException, IOException {
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

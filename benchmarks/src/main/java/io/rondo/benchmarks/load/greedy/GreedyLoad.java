package io.rondo.benchmarks.load.greedy;

import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.load.paced.DelayLog;
import io.rondo.scheduler.time.SystemClocks;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * figure14's greedy readers in a process of their own, which the preset starts under {@code nice}
 * as papers/002 ran its greedy readers "using a lower CPU and I/O priority" than the real-time
 * reader: on a machine of two cores, greedy downloads in the measuring JVM would delay the paced
 * readers' own wake-ups and blame the server for it. One {@link GreedyReader} a path, each on a
 * connection of its own, until the time given; then it writes what they saw to a file the preset
 * reads. Both processes read the machine's monotonic clock ({@code SystemClocks.nanoClock()}), the
 * same one on Linux.
 */
public final class GreedyLoad {

    private GreedyLoad() {
    }

    /**
     * {@code HOST PORT DURATION_NS RESULTS_FILE PATH...}.
     *
     * @param args the server, how long to read, where the results go, and one file path a reader
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 5) {
            System.err.println("usage: GreedyLoad HOST PORT DURATION_NS RESULTS_FILE PATH...");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        NanoClock clock = SystemClocks.nanoClock();
        long startNs = clock.nanoTime();
        long endNs = startNs + Long.parseLong(args[2]);
        Path results = Path.of(args[3]);
        DelayLog log = new DelayLog();
        List<HttpConnection> connections = new ArrayList<>();
        List<GreedyReader> readers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            HttpConnection connection = new HttpConnection(host, port);
            GreedyReader reader = new GreedyReader(connection, List.of(args[i]), clock::nanoTime, endNs, log);
            connections.add(connection);
            readers.add(reader);
            Thread thread = new Thread(reader, "figure14-greedy-" + (i - 4));
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        long leftNs = endNs - clock.nanoTime();
        if (leftNs > 0) {
            TimeUnit.NANOSECONDS.sleep(leftNs);
        }
        long stopNs = clock.nanoTime();
        readers.forEach(GreedyReader::stop);
        for (Thread t : threads) {
            t.join();
        }
        write(results, log, connections.stream().mapToLong(HttpConnection::bodyBytes).sum(), stopNs - startNs);
    }

    /** The results file: a {@code bytes}, {@code elapsedNs} and {@code failures} line, then one service time a line. */
    static void write(Path file, DelayLog log, long bytes, long elapsedNs) throws IOException {
        StringBuilder out = new StringBuilder();
        out.append("bytes ").append(bytes).append('\n');
        out.append("elapsedNs ").append(elapsedNs).append('\n');
        out.append("failures ").append(log.failures()).append(' ')
            .append(log.firstFailure() == null ? "" : log.firstFailure().replace('\n', ' ')).append('\n');
        Histogram h = log.delays();
        h.recordedValues().forEach(v -> out.append(String.format(Locale.ROOT, "t %d %d%n",
            v.getValueIteratedTo(), v.getCountAtValueIteratedTo())));
        Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    }

    /** What {@link #write} wrote, read back into {@code log}. */
    public record Read(long bytes, long elapsedNs) {
        public static Read into(Path file, DelayLog log) throws IOException {
            long bytes = 0;
            long elapsedNs = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] parts = line.split(" ", 3);
                switch (parts[0]) {
                    case "bytes" -> bytes = Long.parseLong(parts[1]);
                    case "elapsedNs" -> elapsedNs = Long.parseLong(parts[1]);
                    case "failures" -> {
                        for (long i = Long.parseLong(parts[1]); i > 0; i--) {
                            log.failed(parts.length > 2 ? parts[2] : "");
                        }
                    }
                    case "t" -> {
                        for (long i = Long.parseLong(parts[2]); i > 0; i--) {
                            log.record(Long.parseLong(parts[1]), 0);
                        }
                    }
                    default -> throw new IOException("an unknown line in " + file + ": " + line);
                }
            }
            return new Read(bytes, elapsedNs);
        }
    }
}

package io.rondo.benchmarks.rig;

import io.rondo.server.cluster.haproxy.HaproxyBinary;
import io.rondo.server.cluster.haproxy.HaproxyConfig;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Debian's HAProxy in front of a cluster of Rondo nodes, on the configuration {@code rondo cluster
 * haproxy-config} writes ({@link HaproxyConfig}), run in the foreground ({@code -db}) as the bench's
 * child process, with its runtime API on a socket in its folder; closing it kills it.
 */
public final class Haproxy implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(20);

    private final Process process;
    private final Path socket;
    private final Path log;

    private Haproxy(Process process, Path socket, Path log) {
        this.process = process;
        this.socket = socket;
        this.log = log;
    }

    /**
     * Writes {@code config} (with a runtime API socket) into {@code folder}, starts HAProxy on it, and
     * returns once {@code port} (one of its binds) accepts connections.
     *
     * @throws IOException if HAProxy is not installed or does not start (what it printed is in the message)
     */
    public static Haproxy start(HaproxyConfig config, Path folder, int port, NanoClock clock) throws IOException {
        HaproxyBinary binary = HaproxyBinary.find().orElseThrow(() ->
            new IOException("haproxy is not installed (apt-get install haproxy)"));
        Path socket = folder.toAbsolutePath().resolve("haproxy.sock");
        Path cfg = config.withStatsSocket(socket).write(folder);
        Path log = folder.resolve("haproxy.log");
        Process process = new ProcessBuilder(binary.path().toString(), "-db", "-f", cfg.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Haproxy haproxy = new Haproxy(process, socket, log);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        long giveUpNs = clock.nanoTime() + START_LIMIT.toNanos();
        while (!Nginx.accepts(address)) {
            if (!process.isAlive() || clock.nanoTime() - giveUpNs > 0) {
                haproxy.close();
                throw new IOException("haproxy did not start:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        return haproxy;
    }

    /**
     * Each server of {@code backend} and its status now ({@code show stat} on HAProxy's runtime API): {@code UP},
     * {@code DRAIN} (its agent says it is full or drained), {@code DOWN}, {@code MAINT}...
     */
    public Map<String, String> serverStatuses(String backend) throws IOException {
        List<String> rows;
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            channel.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            rows = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank()).toList();
        }
        if (rows.isEmpty()) {
            throw new IOException("haproxy's runtime API answered show stat with nothing");
        }
        int status = List.of(rows.get(0).substring(2).split(",")).indexOf("status");
        Map<String, String> statuses = new TreeMap<>();
        for (String row : rows.subList(1, rows.size())) {
            String[] fields = row.split(",", -1);
            if (fields[0].equals(backend) && !fields[1].equals("BACKEND")) {
                statuses.put(fields[1], fields[status]);
            }
        }
        return statuses;
    }

    /** What HAProxy printed so far. */
    public String printed() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

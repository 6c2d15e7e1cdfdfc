package io.rondo.server.cluster.haproxy;

import io.rondo.scheduler.time.SystemClocks;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real {@code haproxy}, run in the foreground ({@code -db}) as this test's child process on a configuration in
 * the test's folder, killed on close. Tests skip, saying so, where it is not installed, unless
 * {@code -Drondo.haproxy.required=true}.
 */
final class HaproxyProcess implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(20);

    private final Process process;
    private final Path log;

    private HaproxyProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** The installed haproxy; skips the calling test without one, or fails it if haproxy is required. */
    static HaproxyBinary binary() {
        Optional<HaproxyBinary> found = HaproxyBinary.find();
        String missing = "haproxy is not installed (apt-get install haproxy)";
        if (Boolean.getBoolean("rondo.haproxy.required")) {
            assertTrue(found.isPresent(), missing + ", and rondo.haproxy.required is set");
        }
        Assumptions.assumeTrue(found.isPresent(), missing + "; skipping");
        return found.get();
    }

    /** A loopback port nothing listens on now (HAProxy binds no port 0). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Writes {@code config} into {@code folder}, starts haproxy on it, and returns once {@code port} accepts. */
    static HaproxyProcess start(HaproxyConfig config, Path folder, int port) throws IOException {
        HaproxyBinary binary = binary();
        Path cfg = config.write(folder);
        Path log = folder.resolve("haproxy.log");
        Process process = new ProcessBuilder(binary.path().toString(), "-db", "-f", cfg.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HaproxyProcess haproxy = new HaproxyProcess(process, log);
        long giveUpNs = SystemClocks.nanoClock().nanoTime() + START_LIMIT.toNanos();
        while (!accepts(port)) {
            if (!process.isAlive() || SystemClocks.nanoClock().nanoTime() - giveUpNs > 0) {
                haproxy.close();
                throw new IOException("haproxy did not start:\n" + haproxy.log());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return haproxy;
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The servers' health check statuses ({@code show stat} on the runtime API at {@code socket}) once every
     * server has been checked, e.g. {@code L7OK}, {@code L7STS} (a wrong status), {@code L4CON} (refused).
     */
    Set<String> checkStatuses(Path socket) throws IOException {
        long giveUpNs = SystemClocks.nanoClock().nanoTime() + START_LIMIT.toNanos();
        while (true) {
            Set<String> statuses = new HashSet<>();
            List<String> rows = showStat(socket);
            int column = List.of(rows.get(0).substring(2).split(",")).indexOf("check_status");
            for (String row : rows.subList(1, rows.size())) {
                String[] fields = row.split(",", -1);
                if (!fields[1].equals("FRONTEND") && !fields[1].equals("BACKEND")) {
                    statuses.add(fields[column]);
                }
            }
            boolean checked = !statuses.contains("INI") && !statuses.contains("");
            if (checked || SystemClocks.nanoClock().nanoTime() - giveUpNs > 0) {
                return statuses;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static List<String> showStat(Path socket) throws IOException {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            channel.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            String stat = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
            return stat.lines().filter(line -> !line.isBlank()).toList();
        }
    }

    /** What haproxy printed so far. */
    String log() throws IOException {
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

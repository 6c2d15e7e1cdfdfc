package io.rondo.systemtest;

import io.rondo.server.cluster.haproxy.HaproxyBinary;
import io.rondo.server.cluster.haproxy.HaproxyConfig;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real {@code haproxy} as a child process, in the foreground ({@code -db}) on a configuration written into a
 * test's folder, killed on close. A test that needs it skips, saying so, where it is not installed, unless
 * {@code -Drondo.haproxy.required=true}.
 */
final class HaproxyChild implements AutoCloseable {

    private static final long START_LIMIT_NS = TimeUnit.SECONDS.toNanos(20);

    private final Process process;
    private final Path log;

    private HaproxyChild(Process process, Path log) {
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
        Assumptions.assumeTrue(found.isPresent(), missing + "; skipping the cluster test");
        return found.get();
    }

    /** Writes {@code config} into {@code folder}, starts haproxy on it, and returns once {@code port} accepts. */
    static HaproxyChild start(HaproxyConfig config, Path folder, int port) throws IOException {
        Path cfg = config.write(folder);
        Path log = folder.resolve("haproxy.log");
        Process process = new ProcessBuilder(binary().path().toString(), "-db", "-f", cfg.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HaproxyChild haproxy = new HaproxyChild(process, log);
        long giveUpNs = System.nanoTime() + START_LIMIT_NS;
        while (!accepts(port)) {
            if (!process.isAlive() || System.nanoTime() - giveUpNs > 0) {
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

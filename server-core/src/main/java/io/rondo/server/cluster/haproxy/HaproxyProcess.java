package io.rondo.server.cluster.haproxy;

import io.rondo.server.launch.ChildProcesses;
import org.agrona.concurrent.NanoClock;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * HAProxy as a child process, as {@code haproxy -W -db -f haproxy.cfg}: its master in the foreground and one
 * worker, what it prints in a log file beside the configuration. The benchmarks' cluster rig and the tests that
 * route through the real HAProxy run it this way; closing it stops it as Ctrl-C does, and forcibly if it lingers.
 */
public final class HaproxyProcess implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(20);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(10);
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int CONNECT_TIMEOUT_MS = 1000;

    private final Process process;
    private final Path log;

    private HaproxyProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Writes {@code config} into {@code folder} ({@link HaproxyConfig#write}) and starts HAProxy on it as
     * {@link #start(HaproxyBinary, Path, int, NanoClock)} does.
     *
     * @throws IOException if it cannot be written, or HAProxy does not start (what it printed is in the message)
     */
    public static HaproxyProcess start(HaproxyBinary binary, HaproxyConfig config, Path folder, int port,
                                       NanoClock clock) throws IOException {
        return start(binary, config.write(folder), port, clock);
    }

    /**
     * Starts HAProxy on the configuration {@code cfg}, what it prints going to a log beside it ({@code NAME.log}
     * for {@code NAME.cfg}), and returns once {@code port} on 127.0.0.1, one of its binds, accepts connections.
     *
     * @param clock the clock the start's limit, 20 s, is counted on
     * @throws IOException if it exits, or does not accept within 20 s (what it printed is in the message)
     */
    public static HaproxyProcess start(HaproxyBinary binary, Path cfg, int port, NanoClock clock)
        throws IOException {
        String name = cfg.getFileName().toString();
        Path log = cfg.resolveSibling((name.endsWith(".cfg") ? name.substring(0, name.length() - 4) : name) + ".log");
        Process process = new ProcessBuilder(binary.path().toString(), "-W", "-db", "-f", cfg.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HaproxyProcess haproxy = new HaproxyProcess(process, log);
        long giveUpNs = clock.nanoTime() + START_LIMIT.toNanos();
        while (!accepts(port)) {
            boolean exited = !process.isAlive();
            if (exited || clock.nanoTime() - giveUpNs > 0) {
                haproxy.close();
                throw new IOException("haproxy " + (exited ? "exited (" + process.exitValue() + ")"
                    : "did not accept on port " + port + " within " + START_LIMIT.toSeconds() + " s") + ":\n"
                    + haproxy.printed());
            }
            LockSupport.parkNanos(POLL_NS);
            if (Thread.interrupted()) {
                haproxy.close();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while haproxy started");
            }
        }
        return haproxy;
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port on 127.0.0.1 that nothing listens on now, for one of HAProxy's binds: it takes no port 0. */
    public static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Every backend's servers as HAProxy sees them now ({@code show stat} on its runtime API at {@code socket},
     * {@link HaproxyConfig#withStatsSocket}), without the frontend and backend totals: each row its columns by
     * name, e.g. {@code pxname} (the backend), {@code svname} (the server), {@code status} ({@code UP},
     * {@code DRAIN (agent)}, {@code DOWN}...), {@code weight}, {@code check_status} ({@code L7OK}, {@code L4CON}...).
     *
     * @throws IOException if nothing answers on {@code socket}, or it answers with nothing
     */
    public static List<Map<String, String>> serverStats(Path socket) throws IOException {
        List<String> rows;
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            channel.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            rows = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank()).toList();
        }
        if (rows.isEmpty() || !rows.get(0).startsWith("# ")) {
            throw new IOException("haproxy's runtime API answered show stat with " + rows);
        }
        String[] columns = rows.get(0).substring(2).split(",");
        List<Map<String, String>> servers = new ArrayList<>();
        for (String row : rows.subList(1, rows.size())) {
            String[] fields = row.split(",", -1);
            Map<String, String> server = new LinkedHashMap<>();
            for (int i = 0; i < columns.length && i < fields.length; i++) {
                server.put(columns[i], fields[i]);
            }
            String svname = server.getOrDefault("svname", "");
            if (!svname.equals("FRONTEND") && !svname.equals("BACKEND")) {
                servers.add(server);
            }
        }
        return servers;
    }

    /** What HAProxy printed so far: its notices, warnings and alerts, such as why it could not start. */
    public String printed() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** Stops it as Ctrl-C does (SIGTERM: the master stops its worker), and forcibly if it lingers past 10 s. */
    @Override
    public void close() {
        ChildProcesses.stop(process, STOP_LIMIT);
    }
}

package io.rondo.benchmarks.rig;

import io.rondo.server.launch.ChildProcesses;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Debian's nginx serving a folder on a free loopback port, from a configuration written for the
 * run, so that Rondo is measured beside a mainstream server on the same files in the same run.
 * Two variants stand for the two ways such a server reads: {@link Variant#SENDFILE} hands files to
 * the kernel and keeps descriptors open (the page cache serves everything), {@link
 * Variant#DIRECTIO} reads around the page cache with {@code directio} and a thread pool ({@code aio
 * threads}), as Rondo's disk executors read. Closing it stops nginx (SIGTERM, then SIGKILL).
 */
public final class Nginx implements AutoCloseable {

    /** How nginx reads the files it serves. */
    public enum Variant {
        /** {@code sendfile on}, {@code tcp_nopush on}, {@code open_file_cache}. */
        SENDFILE("nginx-sendfile", """
                sendfile on;
                tcp_nopush on;
                open_file_cache max=10000 inactive=60s;
                open_file_cache_valid 60s;
            """),
        /** {@code directio 4k}, {@code aio threads}: every read goes to the disk through a thread pool. */
        DIRECTIO("nginx-directio", """
                sendfile off;
                aio threads;
                directio 4k;
                directio_alignment 4k;
                output_buffers 2 256k;
            """);

        private final String label;
        private final String directives;

        Variant(String label, String directives) {
            this.label = label;
            this.directives = directives;
        }

        /** {@code nginx-sendfile} or {@code nginx-directio}: the name in tables, charts and JSON. */
        public String label() {
            return label;
        }

        /** The variant named {@code sendfile} or {@code directio} (or its label), in any case. */
        public static Variant parse(String text) {
            String wanted = text.trim().toLowerCase(Locale.ROOT);
            for (Variant variant : values()) {
                if (variant.label.equals(wanted) || variant.name().toLowerCase(Locale.ROOT).equals(wanted)) {
                    return variant;
                }
            }
            throw new IllegalArgumentException("unknown nginx variant '" + text + "'; choose sendfile or directio");
        }
    }

    /** Where Debian installs nginx; {@code rondo.nginx} (a system property) names another binary. */
    static final String DEFAULT_BINARY = "/usr/sbin/nginx";

    private static final Duration START_LIMIT = Duration.ofSeconds(10);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(10);

    private final Variant variant;
    private final Process process;
    private final InetSocketAddress address;
    private final Path prefix;

    private Nginx(Variant variant, Process process, InetSocketAddress address, Path prefix) {
        this.variant = variant;
        this.process = process;
        this.address = address;
        this.prefix = prefix;
    }

    /** The nginx binary this run uses: {@code -Drondo.nginx=PATH}, else Debian's. */
    public static Path binary() {
        return Path.of(System.getProperty("rondo.nginx", DEFAULT_BINARY));
    }

    /** True if the nginx binary is there to run. */
    public static boolean available() {
        return Files.isExecutable(binary());
    }

    /**
     * Starts nginx serving {@code root} and returns once it accepts connections.
     *
     * @param root the folder served at {@code /}
     * @param variant how nginx reads
     * @param prefix a folder of its own for the configuration, logs and temporary files
     * @param clock the clock its start is timed on
     * @throws IOException if nginx is missing, or does not start (its error log is in the message)
     */
    public static Nginx start(Path root, Variant variant, Path prefix, NanoClock clock) throws IOException {
        if (!available()) {
            throw new IOException("nginx is not installed at " + binary() + " (apt-get install nginx-light)");
        }
        Files.createDirectories(prefix.resolve("temp"));
        int port = freeLoopbackPort();
        Path config = prefix.resolve("nginx.conf");
        Files.writeString(config, configuration(root.toAbsolutePath(), variant, port, prefix.toAbsolutePath()),
            StandardCharsets.UTF_8);
        Path log = prefix.resolve("error.log");
        Process process = new ProcessBuilder(binary().toString(), "-e", log.toString(), "-p", prefix.toString(),
            "-c", config.toString())
            .redirectErrorStream(true).redirectOutput(prefix.resolve("stdout.log").toFile()).start();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        Nginx nginx = new Nginx(variant, process, address, prefix);
        long giveUpNs = clock.nanoTime() + START_LIMIT.toNanos();
        while (!accepts(address)) {
            if (!process.isAlive() || clock.nanoTime() - giveUpNs > 0) {
                nginx.close();
                throw new IOException("nginx (" + variant.label() + ") did not start: " + tail(log)
                    + tail(prefix.resolve("stdout.log")));
            }
            sleepBriefly();
        }
        return nginx;
    }

    /** The configuration for one variant: every worker on the machine's cores, no access log, keep-alive kept. */
    static String configuration(Path root, Variant variant, int port, Path prefix) {
        // Run as root (CI), nginx's workers would be "nobody", who may not read a private temporary folder.
        String user = "root".equals(System.getProperty("user.name")) ? "user root;\n" : "";
        return user + """
            worker_processes auto;
            daemon off;
            master_process on;
            pid %1$s/nginx.pid;
            events {
                worker_connections 8192;
            }
            http {
                access_log off;
                server_tokens off;
                default_type application/octet-stream;
                keepalive_requests 10000000;
                keepalive_timeout 75s;
                client_body_temp_path %1$s/temp/body;
                proxy_temp_path %1$s/temp/proxy;
                fastcgi_temp_path %1$s/temp/fastcgi;
                uwsgi_temp_path %1$s/temp/uwsgi;
                scgi_temp_path %1$s/temp/scgi;
                server {
                    listen 127.0.0.1:%2$d backlog=4096;
                    root %3$s;
            %4$s    }
            }
            """.formatted(prefix, port, root, variant.directives.indent(8));
    }

    /** Which variant this is. */
    public Variant variant() {
        return variant;
    }

    /** Where it listens. */
    public InetSocketAddress address() {
        return address;
    }

    /** Its base URL, {@code http://127.0.0.1:PORT/}. */
    public String url() {
        return "http://" + address.getHostString() + ":" + address.getPort() + "/";
    }

    /** The folder holding its configuration and logs. */
    public Path prefix() {
        return prefix;
    }

    /** Stops nginx: SIGTERM (a fast shutdown), then SIGKILL if it has not stopped within 10 s. */
    @Override
    public void close() {
        ChildProcesses.stop(process, STOP_LIMIT);
    }

    /** A port on 127.0.0.1 that nothing listens on now (the kernel's pick); never one of Rondo's defaults. */
    public static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    static boolean accepts(InetSocketAddress address) {
        try (Socket socket = new Socket()) {
            socket.connect(address, 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleepBriefly() throws IOException {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while nginx started");
        }
    }

    private static String tail(Path log) {
        try {
            if (!Files.exists(log)) {
                return "";
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

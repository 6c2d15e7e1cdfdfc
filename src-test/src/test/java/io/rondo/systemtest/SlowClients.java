package io.rondo.systemtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A slowloris population: connections that hold a server's attention without ever completing a
 * request. Each trickles its bytes (one every {@link #TRICKLE_MS} ms, or none) and watches for the
 * server to answer or close; a connection the server has not cut off by the bound is one the
 * server would hold for as long as the client likes.
 */
final class SlowClients implements AutoCloseable {

    /** The pause between two bytes of a trickling client. */
    static final int TRICKLE_MS = 500;

    private final List<Slow> clients = new ArrayList<>();

    /** One slow connection: what it sends, and when (ms after connecting) the server cut it off, or -1. */
    private static final class Slow {
        final String kind;
        final Socket socket;
        final byte[] bytes;
        final Thread thread;
        volatile long cutAfterMs = -1;

        Slow(String kind, Socket socket, byte[] bytes, Thread thread) {
            this.kind = kind;
            this.socket = socket;
            this.bytes = bytes;
            this.thread = thread;
        }
    }

    /**
     * Opens {@code count} connections to {@code port} that send {@code bytes} one at a time, then
     * nothing more (an empty array: a connection that never says a word).
     */
    void start(String kind, int count, int port, byte[] bytes, long boundMs) throws IOException {
        for (int i = 0; i < count; i++) {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(TRICKLE_MS);
            Slow[] self = new Slow[1];
            Thread thread = new Thread(() -> trickle(self[0], boundMs), "slow-" + kind + "-" + i);
            thread.setDaemon(true);
            self[0] = new Slow(kind, socket, bytes, thread);
            clients.add(self[0]);
            thread.start();
        }
    }

    /** Sends a byte, waits {@link #TRICKLE_MS} for the server to answer or close; until it does or the bound passes. */
    private static void trickle(Slow slow, long boundMs) {
        long startNs = System.nanoTime();
        byte[] answer = new byte[512];
        int sent = 0;
        try (Socket socket = slow.socket) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            while (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) < boundMs) {
                if (sent < slow.bytes.length) {
                    out.write(slow.bytes[sent++]);
                    out.flush();
                }
                try {
                    in.read(answer);
                    slow.cutAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
                    return;
                } catch (SocketTimeoutException stillOpen) {
                    continue;
                }
            }
        } catch (IOException cut) {
            slow.cutAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        }
    }

    /** Waits until every slow client was cut off or reached the bound. */
    void join() throws InterruptedException {
        for (Slow slow : clients) {
            slow.thread.join();
        }
    }

    /** The slow connections the server did not cut off, by kind, e.g. "3 of 4 http-header". */
    List<String> notCutOff() {
        List<String> open = new ArrayList<>();
        for (String kind : kinds()) {
            long total = clients.stream().filter(slow -> slow.kind.equals(kind)).count();
            long held = clients.stream().filter(slow -> slow.kind.equals(kind) && slow.cutAfterMs < 0).count();
            if (held > 0) {
                open.add(held + " of " + total + " " + kind);
            }
        }
        return open;
    }

    /** Per kind: how many, and the longest time the server let one of them hold its connection. */
    String summary() {
        StringBuilder out = new StringBuilder();
        for (String kind : kinds()) {
            List<Slow> ofKind = clients.stream().filter(slow -> slow.kind.equals(kind)).toList();
            long cut = ofKind.stream().filter(slow -> slow.cutAfterMs >= 0).count();
            long longest = ofKind.stream().mapToLong(slow -> slow.cutAfterMs).max().orElse(-1);
            out.append(String.format("%s: %d, cut off %d (longest after %d ms); ", kind, ofKind.size(), cut,
                longest));
        }
        return out.toString();
    }

    private List<String> kinds() {
        return clients.stream().map(slow -> slow.kind).distinct().toList();
    }

    @Override
    public void close() throws IOException {
        for (Slow slow : clients) {
            slow.socket.close();
        }
    }
}

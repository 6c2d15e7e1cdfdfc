package io.rondo.client;

import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Report;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for a Rondo server in the client's tests: one connection (or a few, one after another),
 * served by a script of canned frames on its own thread, so the tests pin the client's behaviour
 * without a real server.
 */
final class FakeServer implements AutoCloseable {
    /** What the server does with its one connection. */
    interface Script {
        void run(Peer peer) throws Exception;
    }

    private final ServerSocket listener;
    private final Thread thread;
    private volatile Throwable failure;

    private FakeServer(Script... scripts) throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        thread = new Thread(() -> {
            for (Script script : scripts) {
                try (Socket socket = listener.accept()) {
                    socket.setSoTimeout(5_000);
                    script.run(new Peer(socket));
                } catch (Throwable t) {
                    failure = t;
                    return;
                }
            }
        }, "fake-rondo-server");
        thread.setDaemon(true);
        thread.start();
    }

    static FakeServer start(Script script) throws IOException {
        return new FakeServer(script);
    }

    /** A server that serves one connection after another on the same port, each by its own script. */
    static FakeServer serving(Script... connections) throws IOException {
        return new FakeServer(connections);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Waits for the script to finish and rethrows anything it failed with, assertions included. */
    void await() throws Exception {
        thread.join(TimeUnit.SECONDS.toMillis(10));
        if (thread.isAlive()) {
            throw new AssertionError("the fake server's script did not finish");
        }
        if (failure instanceof Exception e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    /** The server's end of the connection. */
    static final class Peer {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final FrameDecoder decoder = new FrameDecoder();
        private final ArrayDeque<Frame> pending = new ArrayDeque<>();
        final List<Report> reports = new CopyOnWriteArrayList<>();

        Peer(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        /** The next frame from the client other than REPORT (which is recorded in {@link #reports}). */
        <T extends Frame> T expect(Class<T> type) throws IOException {
            while (true) {
                Frame f = receive();
                if (f instanceof Report r) {
                    reports.add(r);
                } else if (type.isInstance(f)) {
                    return type.cast(f);
                } else {
                    throw new AssertionError("expected " + type.getSimpleName() + " but the client sent " + f);
                }
            }
        }

        /** The next frame from the client, REPORT included; null if it closed the connection. */
        Frame receive() throws IOException {
            byte[] chunk = new byte[4096];
            while (pending.isEmpty()) {
                int n = in.read(chunk);
                if (n < 0) {
                    decoder.finish();
                    return null;
                }
                pending.addAll(decoder.feed(ByteBuffer.wrap(chunk, 0, n)));
                chunk = new byte[4096];
            }
            return pending.poll();
        }

        void send(Frame... frames) throws IOException {
            for (Frame f : frames) {
                sendRaw(FrameCodec.encode(f).array());
            }
        }

        void sendRaw(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /** Waits until the client closes its end, answering nothing. */
        void awaitClientClose() throws IOException {
            try {
                while (receive() != null) {
                    // Whatever the client still sends (REPORT, CLOSE) is not answered.
                    pending.clear();
                }
            } catch (SocketException reset) {
                // A client that closes with unread bytes resets the connection: closed all the same.
                return;
            }
        }

        void close() throws IOException {
            socket.close();
        }
    }
}

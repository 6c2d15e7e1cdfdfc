package io.rondo.server.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for the proxy in front of a cluster's nodes (HAProxy in TCP mode): every connection
 * to its port is passed, both ways, to the node it currently points at; pointed elsewhere, it
 * sends new connections there. When either end closes, so does the other.
 */
final class TcpForwarder implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile InetSocketAddress target;

    TcpForwarder(InetSocketAddress target) throws IOException {
        this.target = target;
        Thread acceptor = new Thread(this::accept, "test-forwarder");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** New connections go to {@code next} from now on. */
    void pointAt(InetSocketAddress next) {
        target = next;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket node = new Socket();
                sockets.add(client);
                sockets.add(node);
                try {
                    node.connect(target, 5_000);
                } catch (IOException e) {
                    client.close();
                    continue;
                }
                pump(client, node);
                pump(node, client);
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // One end went: the other is closed below.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "test-forwarder-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(TcpForwarder::closeQuietly);
    }
}

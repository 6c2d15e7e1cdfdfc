package io.rondo.systemtest;

import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Report;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The stream protocol spoken by hand over a plain socket, so a test can send what no well-behaved
 * client would, stop reading, or vanish; what the server sends back is decoded with the protocol's
 * own {@link FrameDecoder}. Every read has a timeout: a server that hangs fails the test.
 */
final class RawStreamConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final FrameDecoder decoder = new FrameDecoder();
    private final Deque<Frame> decoded = new ArrayDeque<>();
    private final byte[] chunk = new byte[64 * 1024];
    private boolean ended;
    private volatile long bytesReceived;

    private RawStreamConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
    }

    /** Connects; {@code receiveBuffer} above 0 shrinks the socket's receive buffer (a slow, small client). */
    static RawStreamConnection connect(int port, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout((int) RondoUnderTest.READ_TIMEOUT.toMillis());
        return new RawStreamConnection(socket);
    }

    void send(Frame frame) throws IOException {
        send(FrameCodec.encode(frame).array());
    }

    synchronized void send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** Says no more bytes will come from this side (a half-close). */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /**
     * The server's next frame, or null once it has closed the connection (or reset it).
     *
     * @throws java.net.SocketTimeoutException if the server neither sends a frame nor closes in time
     * @throws ProtocolException if the server's bytes are not valid frames
     */
    Frame next() throws IOException {
        while (decoded.isEmpty()) {
            if (ended) {
                return null;
            }
            int n;
            try {
                n = in.read(chunk);
            } catch (SocketException reset) {
                n = -1;
            }
            if (n < 0) {
                ended = true;
                decoder.finish();
                return null;
            }
            decoded.addAll(decoder.feed(ByteBuffer.wrap(chunk.clone(), 0, n)));
        }
        Frame next = decoded.poll();
        if (next instanceof Data data) {
            bytesReceived += data.payload().remaining();
        }
        return next;
    }

    /**
     * Sends REPORT every {@code period}, with the DATA bytes {@link #next} has returned, as a player
     * does, until the connection fails or the returned stop is run; the caller's other frames
     * go between REPORTs, never inside one.
     */
    Runnable reportEvery(Duration period) {
        Thread reporter = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(period.toMillis());
                    send(new Report(0, 0, bytesReceived));
                }
            } catch (InterruptedException | IOException stopped) {
                Thread.currentThread().interrupt();
            }
        }, "raw-stream-reporter");
        reporter.setDaemon(true);
        reporter.start();
        return reporter::interrupt;
    }

    /** Closes abruptly, with a reset rather than an orderly FIN, as a crashed client or a pulled cable would. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

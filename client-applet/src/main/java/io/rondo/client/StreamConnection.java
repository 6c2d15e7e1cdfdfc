package io.rondo.client;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Redirect;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One TCP connection to a server's stream port: frames out, frames in, as the stream protocol
 * frames them. A {@link StreamClient} holds one at a time, and a new one for each node a REDIRECT
 * sends it to or each reconnection. Frames are sent from the reading thread and the report thread,
 * under one lock; read from one thread.
 */
final class StreamConnection {
    private static final int READ_CHUNK = 64 * 1024;

    final Socket socket;
    /** {@code HOST:PORT}, for messages. */
    final String peer;
    final FrameDecoder decoder = new FrameDecoder();
    final ArrayDeque<Frame> pending = new ArrayDeque<>();
    private final Duration timeout;
    private final InputStream in;
    private final OutputStream out;
    private final Object writeLock = new Object();
    private byte[] chunk = new byte[READ_CHUNK];

    private StreamConnection(Socket socket, String peer, Duration timeout) throws IOException {
        this.socket = socket;
        this.peer = peer;
        this.timeout = timeout;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects within {@code timeout}; each later read waits at most as long. */
    static StreamConnection open(String host, int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), millis(timeout));
            socket.setSoTimeout(millis(timeout));
            String peer = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
            return new StreamConnection(socket, peer, timeout);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    void send(Frame frame) throws IOException {
        ByteBuffer bytes = FrameCodec.encode(frame);
        synchronized (writeLock) {
            out.write(bytes.array(), bytes.arrayOffset(), bytes.remaining());
            out.flush();
        }
    }

    /**
     * The next frame from the server, waiting for it.
     *
     * @param waitingFor what the caller waits for, for messages
     * @param closedWhy what the caller knows of why the connection may have closed, or null
     * @throws StreamErrorException if the server sent ERROR
     * @throws SocketTimeoutException if no byte came within the timeout
     * @throws IOException if the server closed the connection, or broke the protocol
     */
    Frame read(String waitingFor, String closedWhy) throws IOException {
        while (pending.isEmpty()) {
            int n;
            try {
                n = in.read(chunk);
            } catch (SocketTimeoutException e) {
                SocketTimeoutException t = new SocketTimeoutException("no bytes from " + peer + " for "
                        + millis(timeout) + " ms while waiting for " + waitingFor);
                t.initCause(e);
                throw t;
            }
            if (n < 0) {
                decoder.finish();
                throw new IOException(peer + " closed the connection while the client was waiting for " + waitingFor
                        + (closedWhy == null ? "" : " (" + closedWhy + ")"));
            }
            List<Frame> frames = decoder.feed(ByteBuffer.wrap(chunk, 0, n));
            pending.addAll(frames);
            if (frames.stream().anyMatch(f -> f instanceof Data || f instanceof Accept)) {
                // Their payloads are slices of this chunk: the next read must not overwrite them.
                chunk = new byte[READ_CHUNK];
            }
        }
        Frame frame = pending.poll();
        if (frame instanceof ErrorFrame error) {
            throw new StreamErrorException(error);
        }
        return frame;
    }

    /**
     * What a server answered an OPEN with, after every REDIRECT was followed.
     *
     * @param connection the connection the answer came on, open
     * @param frame      the answer: ACCEPT, REJECT, or a frame that breaks the protocol
     * @param redirects  how many REDIRECTs were followed to get it
     */
    record Answer(StreamConnection connection, Frame frame, int redirects) {
    }

    /**
     * Sends {@code open} here and, for each REDIRECT, to the node it names (this connection
     * closed), up to {@code maxRedirects} times in a row.
     *
     * @throws StreamErrorException if a server answered ERROR
     * @throws IOException if a connection failed, or a REDIRECT went past the limit or to no stream port
     */
    Answer openFollowingRedirects(Open open, int maxRedirects) throws IOException {
        List<String> route = new ArrayList<>(List.of(peer));
        StreamConnection at = this;
        while (true) {
            at.send(open);
            Frame answer = at.read("the answer to OPEN", null);
            if (!(answer instanceof Redirect redirect)) {
                return new Answer(at, answer, route.size() - 1);
            }
            at.close();
            if (route.size() > maxRedirects) {
                throw new IOException("the OPEN of " + open.objectName() + " went round " + maxRedirects
                        + " redirects without an answer: " + String.join(" -> ", route) + " -> " + redirect.target()
                        + "; the nodes disagree on where it is");
            }
            StreamUrl target;
            try {
                target = StreamUrl.parse(redirect.target());
            } catch (IllegalArgumentException e) {
                throw new IOException(at.peer + " redirected the OPEN of " + open.objectName() + " to "
                        + redirect.target() + ", not a stream port this client can reach: " + e.getMessage(), e);
            }
            at = open(target.host(), target.port(), timeout);
            route.add(at.peer);
        }
    }

    void close() throws IOException {
        socket.close();
    }

    static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }
}

package io.rondo.client;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Durable;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Media;
import io.rondo.client.protocol.ProtocolException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One recording being published over the TCP binding, from its ACCEPT to its END
 * (docs/stream-protocol.md, *Publishing*): the papers' client proxy in front of any encoder that
 * writes to a pipe (papers/000 Section 1). The caller's thread sends the container's bytes as MEDIA
 * frames; a reader thread of its own takes the server's DURABLE frames as they come, so the
 * connection's receive buffer never fills however long the caller writes, and keeps the newest.
 *
 * <pre>{@code
 * try (StreamClient client = StreamClient.connect("localhost", 8554);
 *      Publisher publisher = client.publish("cams/door.mp4", Publish.MP4, 8_000_000, token)) {
 *     for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
 *         publisher.send(buffer, 0, n);
 *     }
 *     Durable last = publisher.finish(Duration.ofSeconds(10));
 * }
 * }</pre>
 *
 * <p>An ERROR from the server ends the recording (what was durable stays); the next {@link #send} or
 * {@link #finish} throws it as a {@link StreamErrorException}. {@code send} and {@code finish} are
 * called from one thread.
 */
public final class Publisher implements AutoCloseable {
    /** How long a failed write waits for the reader to see the ERROR that explains it. */
    private static final long EXPLAIN_WAIT_MS = 1_000;

    private static final int READ_CHUNK = 4 * 1024;

    private final Socket socket;
    private final String peer;
    private final Accept accept;
    private final InputStream in;
    private final OutputStream out;
    private final FrameDecoder decoder;
    private final Queue<Frame> early;
    private final ByteBuffer frame = ByteBuffer.allocate(FrameCodec.HEADER_LENGTH + Media.MAX_BYTES);
    private final CountDownLatch over = new CountDownLatch(1);
    private final Thread reader;
    private volatile Durable lastDurable;
    private volatile boolean closeSent;
    private volatile ErrorFrame error;
    private volatile IOException failure;
    private long bytesSent;

    /**
     * Takes over a connection whose PUBLISH the server accepted.
     *
     * @param socket the connection
     * @param peer the server's address, for messages
     * @param accept the server's ACCEPT
     * @param decoder the connection's decoder, past the ACCEPT
     * @param early frames decoded after the ACCEPT from the same bytes, read before any others
     */
    Publisher(Socket socket, String peer, Accept accept, FrameDecoder decoder, Queue<Frame> early)
            throws IOException {
        this.socket = socket;
        this.peer = peer;
        this.accept = accept;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.decoder = decoder;
        this.early = new ArrayDeque<>(early);
        // DURABLE comes once a round; a quiet server is noticed by finish's timeout, not by the reader.
        socket.setSoTimeout(0);
        reader = new Thread(this::read, "rondo-publish-read-" + peer);
        reader.setDaemon(true);
        reader.start();
    }

    /** The server's ACCEPT: the stream id, the round length (fragment duration) and the peak rate it admitted. */
    public Accept accept() {
        return accept;
    }

    /**
     * Sends bytes of the container as MEDIA frames of at most {@link Media#MAX_BYTES} each, so that no
     * frame passes a server's default client-frame limit.
     *
     * @param b the bytes
     * @param off where they start in {@code b}
     * @param len how many to send; 0 sends nothing
     * @throws StreamErrorException if the server has ended the recording with ERROR
     * @throws IOException if the connection failed, or the server broke the protocol
     */
    public void send(byte[] b, int off, int len) throws IOException {
        if (off < 0 || len < 0 || len > b.length - off) {
            throw new IndexOutOfBoundsException("bytes " + off + " to " + (off + len) + " of an array of " + b.length);
        }
        requireOpen("send");
        for (int at = off; at < off + len; at += Media.MAX_BYTES) {
            write(new Media(ByteBuffer.wrap(b, at, Math.min(Media.MAX_BYTES, off + len - at))));
        }
        bytesSent += len;
    }

    /** MEDIA bytes sent so far. */
    public long bytesSent() {
        return bytesSent;
    }

    /** The newest DURABLE the server sent: what of the recording a crash cannot lose; null before the first. */
    public Durable lastDurable() {
        return lastDurable;
    }

    /**
     * Ends the recording: sends CLOSE, then waits for the server to write its last round, send its
     * last DURABLE and END.
     *
     * @param timeout how long to wait for END
     * @return the last DURABLE: all of the recording that is on disk
     * @throws StreamErrorException if the server ended the recording with ERROR instead
     * @throws SocketTimeoutException if END did not come within {@code timeout}
     * @throws IOException if the connection failed, or the server broke the protocol
     */
    public Durable finish(Duration timeout) throws IOException {
        requireOpen("finish");
        closeSent = true;
        write(new Close());
        try {
            if (!over.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new SocketTimeoutException("no END from " + peer + " within " + timeout.toMillis()
                        + " ms of CLOSE: the last round may not be durable");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the end of the recording", e);
        }
        throwFailure();
        Durable last = lastDurable;
        if (last == null) {
            throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, peer + " sent END without a DURABLE");
        }
        return last;
    }

    /**
     * Closes the connection. Before {@link #finish}, that abandons the recording: the server ends it
     * with what was durable. Safe to call more than once.
     *
     * @throws IOException if closing the socket fails
     */
    @Override
    public void close() throws IOException {
        socket.close();
    }

    private void requireOpen(String action) throws IOException {
        throwFailure();
        if (closeSent) {
            throw new IllegalStateException("cannot " + action + " a recording already finished");
        }
    }

    private void write(Frame f) throws IOException {
        frame.clear();
        FrameCodec.encode(f, frame);
        try {
            out.write(frame.array(), 0, frame.position());
            out.flush();
        } catch (IOException e) {
            // A server that ends a recording sends ERROR and closes: the ERROR says why the write failed.
            awaitReader();
            throwFailure();
            throw e;
        }
    }

    private void awaitReader() {
        try {
            over.await(EXPLAIN_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An ERROR or a failure the reader saw, thrown on the caller's thread. */
    private void throwFailure() throws IOException {
        if (error != null) {
            throw new StreamErrorException(error);
        }
        IOException f = failure;
        if (f instanceof ProtocolException p) {
            throw new ProtocolException(p.code(), p.getMessage());
        }
        if (f != null) {
            throw new IOException(f.getMessage(), f);
        }
    }

    /** The reader thread: every frame until END, ERROR or the connection's end. */
    private void read() {
        byte[] chunk = new byte[READ_CHUNK];
        try {
            while (true) {
                Frame f = early.poll();
                if (f == null) {
                    int n = in.read(chunk);
                    if (n < 0) {
                        decoder.finish();
                        throw new IOException(peer + " closed the connection before END");
                    }
                    early.addAll(decoder.feed(ByteBuffer.wrap(chunk, 0, n)));
                } else if (!received(f)) {
                    return;
                }
            }
        } catch (IOException e) {
            if (!socket.isClosed()) {
                failure = e;
            }
        } finally {
            over.countDown();
        }
    }

    /** Takes one frame from the server; false once it was the last. */
    private boolean received(Frame f) throws ProtocolException {
        if (f instanceof Durable d) {
            lastDurable = d;
            return true;
        }
        if (f instanceof ErrorFrame e) {
            error = e;
            return false;
        }
        if (f instanceof End && closeSent) {
            return false;
        }
        throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, peer + " sent " + f.type() + " to a publisher"
                + (f instanceof End ? " before CLOSE" : "; it sends only DURABLE, then END or ERROR"));
    }
}

package io.rondo.client;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.ErrorFrame;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.FrameCodec;
import io.rondo.client.protocol.FrameDecoder;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Pause;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.Report;
import io.rondo.client.protocol.Resume;
import io.rondo.client.protocol.Seek;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A blocking client of one stream over the TCP binding (docs/stream-protocol.md), for `rondo play`,
 * the load generator and tests: plain sockets, no framework, so it measures the server rather than
 * itself. Reports go out from a daemon thread every report interval while the stream is open, so the
 * server hears from a client even while the application is not reading (paused, say).
 *
 * <pre>{@code
 * try (StreamClient client = StreamClient.connect("localhost", 8554)) {
 *     Accept accept = client.open("films/a.webm", 0, new ClientProfile(2_000_000, 8_000_000));
 *     for (Data d = client.nextData(); d != null; d = client.nextData()) {
 *         play(d.payload());
 *     }
 * }
 * }</pre>
 *
 * <p>One thread reads and calls the control methods; only REPORT is sent from the report thread.
 * {@link #publish} records a stream in the other direction, through a {@link Publisher}.
 */
public final class StreamClient implements AutoCloseable {
    /** How long a connect or a read may wait before it fails, unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** How often REPORT is sent while a stream is open, unless told otherwise. */
    public static final Duration DEFAULT_REPORT_INTERVAL = Duration.ofSeconds(1);

    private static final int READ_CHUNK = 64 * 1024;

    private enum State { IDLE, STREAMING, PUBLISHING, CLOSED }

    private final Socket socket;
    private final String peer;
    private final Duration timeout;
    private final Duration reportInterval;
    private final InputStream in;
    private final OutputStream out;
    private final Object writeLock = new Object();
    private final FrameDecoder decoder = new FrameDecoder();
    private final ArrayDeque<Frame> pending = new ArrayDeque<>();
    private byte[] chunk = new byte[READ_CHUNK];
    private State state = State.IDLE;
    private ScheduledExecutorService reporter;
    private int seeksUnanswered;
    private volatile Live lastLive;
    private volatile long bytesReceived;
    private volatile long bufferedNs;
    private volatile long bufferedBytes;
    private volatile IOException reportFailure;

    private StreamClient(Socket socket, String peer, Duration timeout, Duration reportInterval) throws IOException {
        this.socket = socket;
        this.peer = peer;
        this.timeout = timeout;
        this.reportInterval = reportInterval;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Connects with the default timeout and report interval.
     *
     * @param host the server's name or address
     * @param port the server's stream-protocol port
     * @throws IOException if the connection cannot be made
     */
    public static StreamClient connect(String host, int port) throws IOException {
        return connect(host, port, DEFAULT_TIMEOUT, DEFAULT_REPORT_INTERVAL);
    }

    /**
     * Connects to a server's stream-protocol port.
     *
     * @param host the server's name or address
     * @param port the server's stream-protocol port
     * @param timeout how long the connect, and each later wait for the server's bytes, may take
     * @param reportInterval how often to send REPORT while a stream is open
     * @throws IOException if the connection cannot be made
     */
    public static StreamClient connect(String host, int port, Duration timeout, Duration reportInterval)
            throws IOException {
        if (timeout.isNegative() || timeout.isZero() || reportInterval.isNegative() || reportInterval.isZero()) {
            throw new IllegalArgumentException("timeout and reportInterval must be positive");
        }
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), millis(timeout));
            socket.setSoTimeout(millis(timeout));
            return new StreamClient(socket, host + ":" + port, timeout, reportInterval);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Asks for a stream and waits for the server's answer.
     *
     * @param objectName the object's name in the catalog
     * @param startNs where to start, in nanoseconds of presentation time
     * @param profile what this client can take
     * @return the server's ACCEPT: stream id, codecs, init segment, fragment duration, bit rate
     * @throws StreamRejectedException if the server answers REJECT; another OPEN may follow
     * @throws StreamErrorException if the server answers ERROR
     * @throws IOException if the connection fails, times out, or the server breaks the protocol
     */
    public Accept open(String objectName, long startNs, ClientProfile profile)
            throws IOException, StreamRejectedException {
        return open(new Open(objectName, startNs, profile));
    }

    /**
     * Asks for a stream starting behind the live edge and waits for the server's answer. For an
     * object being recorded, {@link Accept#live()} is set and {@link #lastLive()} follows the recording;
     * for one that is not, the start counts back from the object's end.
     *
     * @param objectName the object's name in the catalog
     * @param behindNs how far behind the live edge to start, in nanoseconds; 0 starts at the newest keyframe
     * @param profile what this client can take
     * @return the server's ACCEPT
     * @throws StreamRejectedException if the server answers REJECT; another OPEN may follow
     * @throws StreamErrorException if the server answers ERROR
     * @throws IOException if the connection fails, times out, or the server breaks the protocol
     */
    public Accept openFromLive(String objectName, long behindNs, ClientProfile profile)
            throws IOException, StreamRejectedException {
        return open(new Open(objectName, behindNs, profile, true));
    }

    private Accept open(Open open) throws IOException, StreamRejectedException {
        String objectName = open.objectName();
        requireState(State.IDLE, "open");
        send(open);
        Frame answer = readFrame("the answer to OPEN");
        if (answer instanceof Accept accept) {
            state = State.STREAMING;
            startReporting();
            return accept;
        }
        if (answer instanceof Reject reject) {
            throw new StreamRejectedException(objectName, reject);
        }
        throw unexpected(answer, "OPEN", "ACCEPT, REJECT or ERROR");
    }

    /**
     * Asks to record a stream this client sends, and waits for the server's answer. On ACCEPT the
     * connection belongs to the returned {@link Publisher}: this client then only closes.
     *
     * @param objectName the name the recording gets in the catalog
     * @param container {@link Publish#MP4} (fragmented MP4) or {@link Publish#WEBM}
     * @param peakBitsPerSecond the most this client will send, in bits per second
     * @param token a bearer token with the {@code publish} scope
     * @return the recording, to send its bytes to
     * @throws StreamRejectedException if the server answers REJECT; another PUBLISH may follow
     * @throws StreamErrorException if the server answers ERROR
     * @throws IOException if the connection fails, times out, or the server breaks the protocol
     */
    public Publisher publish(String objectName, String container, long peakBitsPerSecond, String token)
            throws IOException, StreamRejectedException {
        requireState(State.IDLE, "publish");
        send(new Publish(objectName, container, peakBitsPerSecond, token));
        Frame answer = readFrame("the answer to PUBLISH");
        if (answer instanceof Accept accept) {
            state = State.PUBLISHING;
            Publisher publisher = new Publisher(socket, peer, accept, decoder, pending);
            pending.clear();
            return publisher;
        }
        if (answer instanceof Reject reject) {
            throw new StreamRejectedException(objectName, reject);
        }
        throw unexpected(answer, "PUBLISH", "ACCEPT, REJECT or ERROR");
    }

    /**
     * The stream's next fragment, waiting for it; DATA sent before the latest SEEK is skipped, and
     * LIVE is kept as {@link #lastLive()}.
     *
     * @return the next DATA, or null once the server has sent END
     * @throws StreamErrorException if the server sent ERROR
     * @throws IOException if the connection fails, times out, or the server breaks the protocol
     */
    public Data nextData() throws IOException {
        if (state == State.CLOSED) {
            return null;
        }
        requireState(State.STREAMING, "nextData");
        while (true) {
            Frame frame = readFrame("DATA");
            if (frame instanceof End) {
                shutdown();
                return null;
            }
            if (frame instanceof Live live) {
                lastLive = live;
                continue;
            }
            if (!(frame instanceof Data data)) {
                throw unexpected(frame, "ACCEPT", "DATA, LIVE, END or ERROR");
            }
            bytesReceived += data.payload().remaining();
            if (data.discontinuity() && seeksUnanswered > 0) {
                seeksUnanswered--;
            }
            if (seeksUnanswered == 0) {
                return data;
            }
        }
    }

    /**
     * Asks the server to stop sending DATA; fragments already on the way still arrive.
     *
     * @throws IOException if the frame cannot be sent
     */
    public void pause() throws IOException {
        requireState(State.STREAMING, "pause");
        send(new Pause());
    }

    /**
     * Asks the server to send DATA again after {@link #pause()}.
     *
     * @throws IOException if the frame cannot be sent
     */
    public void resume() throws IOException {
        requireState(State.STREAMING, "resume");
        send(new Resume());
    }

    /**
     * Moves playback; {@link #nextData()} then skips DATA until the fragment at or before
     * {@code positionNs} arrives.
     *
     * @param positionNs the new position, in nanoseconds of presentation time
     * @throws IOException if the frame cannot be sent
     */
    public void seek(long positionNs) throws IOException {
        seek(new Seek(positionNs));
    }

    /**
     * Moves playback behind the live edge (0: to the edge, "go live"); {@link #nextData()} then skips
     * DATA until the first fragment of the new position arrives.
     *
     * @param behindNs how far behind the live edge to resume, in nanoseconds
     * @throws IOException if the frame cannot be sent
     */
    public void seekFromLive(long behindNs) throws IOException {
        seek(new Seek(behindNs, true));
    }

    private void seek(Seek seek) throws IOException {
        requireState(State.STREAMING, "seek");
        send(seek);
        seeksUnanswered++;
    }

    /**
     * The latest LIVE the server sent on this stream: how far the recording has got and whether it
     * has ended; null if the object is not live or no LIVE has been read yet.
     */
    public Live lastLive() {
        return lastLive;
    }

    /**
     * Sets what the next REPORTs say about the player's buffer.
     *
     * @param bufferedNs presentation time held ahead of playback, in nanoseconds
     * @param bufferedBytes bytes held ahead of playback
     */
    public void bufferLevel(long bufferedNs, long bufferedBytes) {
        if (bufferedNs < 0 || bufferedBytes < 0) {
            throw new IllegalArgumentException("buffer level must not be negative");
        }
        this.bufferedNs = bufferedNs;
        this.bufferedBytes = bufferedBytes;
    }

    /** DATA payload bytes received on this stream so far, as REPORT tells the server. */
    public long bytesReceived() {
        return bytesReceived;
    }

    /**
     * Sends CLOSE if a stream is open (without waiting for END) and closes the connection, a
     * publisher's too. Safe to call more than once.
     *
     * @throws IOException if closing the socket fails
     */
    @Override
    public void close() throws IOException {
        if (state == State.STREAMING) {
            try {
                send(new Close());
            } catch (IOException e) {
                // The connection is already gone; closing it is all that is left to do.
                reportFailure = e;
            }
        }
        shutdown();
    }

    private void startReporting() {
        reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rondo-stream-report-" + peer);
            t.setDaemon(true);
            return t;
        });
        long periodNs = reportInterval.toNanos();
        reporter.scheduleAtFixedRate(this::sendReport, periodNs, periodNs, TimeUnit.NANOSECONDS);
    }

    private void sendReport() {
        try {
            send(new Report(bufferedNs, bufferedBytes, bytesReceived));
        } catch (IOException e) {
            reportFailure = e;
            reporter.shutdown();
        }
    }

    private void send(Frame frame) throws IOException {
        ByteBuffer bytes = FrameCodec.encode(frame);
        synchronized (writeLock) {
            out.write(bytes.array(), bytes.arrayOffset(), bytes.remaining());
            out.flush();
        }
    }

    /** The next frame from the server; ERROR becomes {@link StreamErrorException}. */
    private Frame readFrame(String waitingFor) throws IOException {
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
                        + (reportFailure == null ? "" : " (" + reportFailure.getMessage() + ")"));
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
            shutdown();
            throw new StreamErrorException(error);
        }
        return frame;
    }

    private ProtocolException unexpected(Frame frame, String after, String expected) throws IOException {
        shutdown();
        return new ProtocolException(ErrorCode.UNEXPECTED_FRAME, peer + " sent " + frame.type() + " after " + after
                + "; expected " + expected);
    }

    private void requireState(State required, String action) {
        if (state != required) {
            throw new IllegalStateException("cannot " + action + " a client that is " + state);
        }
    }

    private void shutdown() throws IOException {
        state = State.CLOSED;
        if (reporter != null) {
            reporter.shutdownNow();
        }
        socket.close();
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }
}

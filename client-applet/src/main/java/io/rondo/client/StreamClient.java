package io.rondo.client;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Close;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.ErrorCode;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.Live;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Pause;
import io.rondo.client.protocol.ProtocolException;
import io.rondo.client.protocol.Publish;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.Resume;
import io.rondo.client.protocol.Seek;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

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
 * <p>OPEN says the client follows REDIRECT: a node of a cluster that does not hold the object, or
 * has no room for it, names another, and the client OPENs there, at most {@link #MAX_REDIRECTS} times
 * in a row. Given a {@link Reconnect}, a stream whose connection drops is opened again at the address
 * first given, at the fragment after the last received; each such {@link Gap} is kept ({@link #gaps()}).
 *
 * <p>One thread reads and calls the control methods; only REPORT is sent from the report thread.
 * {@link #publish} records a stream in the other direction, through a {@link Publisher}.
 */
public final class StreamClient implements AutoCloseable {
    /** How long a connect or a read may wait before it fails, unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** How often REPORT is sent while a stream is open, unless told otherwise. */
    public static final Duration DEFAULT_REPORT_INTERVAL = Duration.ofSeconds(1);
    /** The most REDIRECTs one OPEN follows in a row; one more fails it as a loop. */
    public static final int MAX_REDIRECTS = 3;

    private enum State { IDLE, STREAMING, PUBLISHING, CLOSED }

    private final String host;
    private final int port;
    private final Duration timeout;
    private final Resumption resumption;
    private volatile StreamConnection connection;
    private State state = State.IDLE;
    private final StreamReports reports;
    private int seeksUnanswered;
    /** The OPEN the stream was accepted for, and its ACCEPT; reopened from after a loss. */
    private Open opened;
    private Accept accept;
    private volatile int redirects;
    private volatile Live lastLive;
    private volatile long bytesReceived;

    private StreamClient(StreamConnection connection, String host, int port, Duration timeout, Duration reportInterval,
                         Reconnect reconnect) {
        this.connection = connection;
        this.host = host;
        this.port = port;
        this.timeout = timeout;
        this.reports = new StreamReports(reportInterval);
        this.resumption = new Resumption(reconnect, connection.peer);
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
     * Connects to a server's stream-protocol port; a lost connection fails the stream.
     *
     * @param host the server's name or address
     * @param port the server's stream-protocol port
     * @param timeout how long the connect, and each later wait for the server's bytes, may take
     * @param reportInterval how often to send REPORT while a stream is open
     * @throws IOException if the connection cannot be made
     */
    public static StreamClient connect(String host, int port, Duration timeout, Duration reportInterval)
            throws IOException {
        return connect(host, port, timeout, reportInterval, Reconnect.NEVER);
    }

    /**
     * Connects to a server's stream-protocol port, to reconnect there as {@code reconnect} says when
     * a stream's connection drops.
     *
     * @param host the server's name or address; in a cluster, the name in front of its nodes
     * @param port the server's stream-protocol port
     * @param timeout how long the connect, and each later wait for the server's bytes, may take
     * @param reportInterval how often to send REPORT while a stream is open
     * @param reconnect how to pick a lost stream up again
     * @throws IOException if the connection cannot be made
     */
    public static StreamClient connect(String host, int port, Duration timeout, Duration reportInterval,
                                       Reconnect reconnect) throws IOException {
        if (timeout.isNegative() || timeout.isZero() || reportInterval.isNegative() || reportInterval.isZero()) {
            throw new IllegalArgumentException("timeout and reportInterval must be positive");
        }
        return new StreamClient(StreamConnection.open(host, port, timeout), host, port, timeout, reportInterval,
                reconnect);
    }

    /**
     * Asks for a stream and waits for the server's answer, following REDIRECTs.
     *
     * @param objectName the object's name in the catalog
     * @param startNs where to start, in nanoseconds of presentation time
     * @param profile what this client can take
     * @return the server's ACCEPT: stream id, codecs, init segment, fragment duration, bit rate
     * @throws StreamRejectedException if the server answers REJECT; another OPEN may follow
     * @throws StreamErrorException if the server answers ERROR
     * @throws IOException if the connection fails, times out, the server breaks the protocol, or
     *     REDIRECTs go round more than {@link #MAX_REDIRECTS} times
     */
    public Accept open(String objectName, long startNs, ClientProfile profile)
            throws IOException, StreamRejectedException {
        return open(new Open(objectName, startNs, profile, false, true));
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
        return open(new Open(objectName, behindNs, profile, true, true));
    }

    private Accept open(Open open) throws IOException, StreamRejectedException {
        requireState(State.IDLE, "open");
        try {
            accept = openFollowingRedirects(open);
        } catch (StreamErrorException e) {
            shutdown();
            throw e;
        }
        opened = open;
        state = State.STREAMING;
        reports.start(connection);
        return accept;
    }

    /** Sends {@code open}, and again to each node a REDIRECT names, until ACCEPT. */
    private Accept openFollowingRedirects(Open open) throws IOException, StreamRejectedException {
        StreamConnection.Answer answer = connection.openFollowingRedirects(open, MAX_REDIRECTS);
        connection = answer.connection();
        redirects += answer.redirects();
        if (answer.frame() instanceof Accept accepted) {
            return accepted;
        }
        if (answer.frame() instanceof Reject reject) {
            throw new StreamRejectedException(open.objectName(), reject);
        }
        throw unexpected(answer.frame(), "OPEN", "ACCEPT, REJECT, REDIRECT or ERROR");
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
        connection.send(new Publish(objectName, container, peakBitsPerSecond, token));
        Frame answer;
        try {
            answer = read("the answer to PUBLISH");
        } catch (StreamErrorException e) {
            shutdown();
            throw e;
        }
        if (answer instanceof Accept accepted) {
            state = State.PUBLISHING;
            StreamConnection c = connection;
            Publisher publisher = new Publisher(c.socket, c.peer, accepted, c.decoder, c.pending);
            c.pending.clear();
            return publisher;
        }
        if (answer instanceof Reject reject) {
            throw new StreamRejectedException(objectName, reject);
        }
        throw unexpected(answer, "PUBLISH", "ACCEPT, REJECT or ERROR");
    }

    /**
     * The stream's next fragment, waiting for it; DATA sent before the latest SEEK is skipped, and
     * LIVE is kept as {@link #lastLive()}. With a {@link Reconnect}, a lost connection is opened
     * again and the stream goes on after a {@link Gap}.
     *
     * @return the next DATA, or null once the server has sent END
     * @throws StreamErrorException if the server sent ERROR
     * @throws IOException if the connection fails, times out, or the server breaks the protocol, and
     *     reconnection (if any) could not pick the stream up again
     */
    public Data nextData() throws IOException {
        if (state == State.CLOSED) {
            return null;
        }
        requireState(State.STREAMING, "nextData");
        while (true) {
            Frame frame;
            try {
                frame = read("DATA");
            } catch (IOException e) {
                if (state != State.STREAMING || !resumption.lost(e)) {
                    shutdown();
                    throw e;
                }
                if (!resume(e)) {
                    return null;
                }
                continue;
            }
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
            reports.received(data.payload().remaining());
            if (data.discontinuity() && seeksUnanswered > 0) {
                seeksUnanswered--;
            }
            Data kept = seeksUnanswered == 0 ? resumption.received(data) : null;
            if (kept != null) {
                return kept;
            }
        }
    }

    /** Opens the stream again after a lost connection: false if it was over (the loss came after its end). */
    private boolean resume(IOException cause) throws IOException {
        reports.stop();
        connection.close();
        try {
            accept = resumption.resume(cause, opened, accept, this::reopen);
        } catch (IOException e) {
            shutdown();
            throw e;
        }
        if (accept == null) {
            shutdown();
            return false;
        }
        seeksUnanswered = 0;
        reports.start(connection);
        return true;
    }

    private Accept reopen(Open open) throws IOException, StreamRejectedException {
        connection = StreamConnection.open(host, port, timeout);
        try {
            return openFollowingRedirects(open);
        } catch (IOException | StreamRejectedException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * Asks the server to stop sending DATA; fragments already on the way still arrive.
     *
     * @throws IOException if the frame cannot be sent
     */
    public void pause() throws IOException {
        requireState(State.STREAMING, "pause");
        connection.send(new Pause());
    }

    /**
     * Asks the server to send DATA again after {@link #pause()}.
     *
     * @throws IOException if the frame cannot be sent
     */
    public void resume() throws IOException {
        requireState(State.STREAMING, "resume");
        connection.send(new Resume());
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
        connection.send(seek);
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
        reports.bufferLevel(bufferedNs, bufferedBytes);
    }

    /** DATA payload bytes received on this stream so far, over every connection it had. */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** The gaps the stream had, each a lost connection picked up again, oldest first. */
    public List<Gap> gaps() {
        return resumption.gaps();
    }

    /** How many times the stream was opened again after a lost connection. */
    public int reconnects() {
        return resumption.reconnects();
    }

    /** How many REDIRECTs this client followed, on every OPEN it sent. */
    public int redirects() {
        return redirects;
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
                connection.send(new Close());
            } catch (IOException e) {
                // The connection is already gone; closing it is all that is left to do.
                reports.failed(e);
            }
        }
        shutdown();
    }

    /** The next frame from the server; ERROR becomes {@link StreamErrorException}. */
    private Frame read(String waitingFor) throws IOException {
        return connection.read(waitingFor, reports.failure());
    }

    private ProtocolException unexpected(Frame frame, String after, String expected) throws IOException {
        shutdown();
        return new ProtocolException(ErrorCode.UNEXPECTED_FRAME, connection.peer + " sent " + frame.type()
                + " after " + after + "; expected " + expected);
    }

    private void requireState(State required, String action) {
        if (state != required) {
            throw new IllegalStateException("cannot " + action + " a client that is " + state);
        }
    }

    private void shutdown() throws IOException {
        state = State.CLOSED;
        reports.stop();
        connection.close();
    }
}

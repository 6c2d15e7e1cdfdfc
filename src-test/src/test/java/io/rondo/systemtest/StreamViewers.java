package io.rondo.systemtest;

import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import io.rondo.client.protocol.End;
import io.rondo.client.protocol.Frame;
import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Reject;
import io.rondo.client.protocol.RejectReason;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A population of viewers of one continuous object, each on its own thread and connection: a
 * viewer OPENs, plays the stream to its END while checking that every fragment arrives in order,
 * and OPENs again; a refused viewer waits the retry-after the server asked for, and asks again.
 * What went against the server's promises is collected as text for the test's failure message.
 */
final class StreamViewers {

    /** The reasons a stream may be refused for when the server is full: its resources. */
    static final Set<RejectReason> RESOURCES = EnumSet.of(RejectReason.DISK_TIME, RejectReason.BUFFER_MEMORY,
        RejectReason.NETWORK);

    private static final int MAX_PROBLEMS = 20;

    /** How often a viewer sends REPORT: about once a second, as the protocol asks. */
    private static final Duration REPORT_PERIOD = Duration.ofSeconds(1);

    private final int port;
    private final Open open;
    private final long fragments;
    private final List<Thread> threads = new ArrayList<>();
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private volatile long stopAtNs;
    private volatile boolean stopped;

    final AtomicLong offered = new AtomicLong();
    final AtomicLong admitted = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong played = new AtomicLong();
    final AtomicLong fragmentsReceived = new AtomicLong();
    final AtomicLong cutByTheEnd = new AtomicLong();

    /**
     * @param port      the stream port
     * @param name      the object's name
     * @param profile   what each viewer tells the server it can take
     * @param fragments how many fragments the object has: a stream played to END carried them all
     */
    StreamViewers(int port, String name, ClientProfile profile, long fragments) {
        this.port = port;
        this.open = new Open(name.substring(1), 0, profile);
        this.fragments = fragments;
    }

    /**
     * OPENs streams one after the other until the server refuses one, and returns the admitted
     * ones, still open: how many streams admission allows.
     */
    List<RawStreamConnection> openUntilRefused(int most) throws IOException {
        List<RawStreamConnection> accepted = new ArrayList<>();
        while (accepted.size() < most) {
            RawStreamConnection connection = RawStreamConnection.connect(port, 0);
            offered.incrementAndGet();
            connection.send(open);
            Frame answer = connection.next();
            if (answer instanceof Accept) {
                admitted.incrementAndGet();
                accepted.add(connection);
                continue;
            }
            connection.close();
            judgeRefusal(answer);
            break;
        }
        return accepted;
    }

    /** Starts one viewer that first plays {@code accepted}'s stream (or null: starts with an OPEN). */
    void start(RawStreamConnection accepted, long stopAtNs) {
        this.stopAtNs = stopAtNs;
        Thread thread = new Thread(() -> view(accepted), "viewer-" + threads.size());
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private void view(RawStreamConnection first) {
        RawStreamConnection connection = first;
        while (!stopped && System.nanoTime() - stopAtNs < 0) {
            try {
                if (connection == null) {
                    connection = RawStreamConnection.connect(port, 0);
                    offered.incrementAndGet();
                    connection.send(open);
                    Frame answer = connection.next();
                    if (!(answer instanceof Accept)) {
                        connection.close();
                        connection = null;
                        waitToRetry(judgeRefusal(answer));
                        continue;
                    }
                    admitted.incrementAndGet();
                }
                play(connection, first == connection);
            } catch (IOException e) {
                problem("an admitted stream failed: " + e);
            } finally {
                closeQuietly(connection);
                connection = null;
            }
        }
    }

    /**
     * Plays an accepted stream to its END, or until the run ends, sending REPORT about once a
     * second as the protocol asks of a client while its stream is open.
     */
    private void play(RawStreamConnection connection, boolean probe) throws IOException {
        Runnable stopReporting = connection.reportEvery(REPORT_PERIOD);
        try {
            playReporting(connection, probe);
        } finally {
            stopReporting.run();
        }
    }

    private void playReporting(RawStreamConnection connection, boolean probe) throws IOException {
        long expected = 0;
        long acceptedNs = System.nanoTime();
        while (true) {
            if (stopped || System.nanoTime() - stopAtNs >= 0) {
                cutByTheEnd.incrementAndGet();
                return;
            }
            Frame frame;
            try {
                frame = connection.next();
            } catch (java.net.SocketTimeoutException e) {
                problem("an admitted stream (" + (probe ? "probe" : "later") + ") sent nothing for "
                    + RondoUnderTest.READ_TIMEOUT.toSeconds() + " s after fragment " + (expected - 1) + ", "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - acceptedNs) + " ms after its ACCEPT");
                return;
            }
            if (frame instanceof Data data) {
                if (data.fragmentIndex() != expected) {
                    problem("an admitted stream sent fragment " + data.fragmentIndex() + " where " + expected
                        + " was due");
                }
                expected = data.fragmentIndex() + 1;
                fragmentsReceived.incrementAndGet();
            } else if (frame instanceof End) {
                if (expected != fragments) {
                    problem("an admitted stream ended after " + expected + " of " + fragments + " fragments");
                }
                played.incrementAndGet();
                return;
            } else {
                problem("an admitted stream got " + frame + " after fragment " + expected);
                return;
            }
        }
    }

    /** Checks a refusal is one for lack of resources with a retry-after; returns the seconds to wait. */
    private int judgeRefusal(Frame answer) {
        if (answer instanceof Reject reject) {
            refused.incrementAndGet();
            if (!RESOURCES.contains(reject.reason()) || reject.retryAfterSeconds() <= 0) {
                problem("a stream was refused with " + reject + ", not for resources with a retry-after");
            }
            return Math.max(1, reject.retryAfterSeconds());
        }
        problem("an OPEN was answered with " + answer + ", neither ACCEPT nor REJECT");
        return 1;
    }

    private void waitToRetry(int seconds) {
        long untilNs = Math.min(System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds), stopAtNs);
        while (!stopped && untilNs - System.nanoTime() > 0) {
            try {
                Thread.sleep(Math.max(1, Math.min(100, (untilNs - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void problem(String what) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(what);
        }
    }

    /** What went against the promises, at most 20 lines. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    /** Waits for every viewer to stop (the run's end, plus the time a read may take). */
    void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    private static void closeQuietly(RawStreamConnection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Ends the run: every client stops, and this returns once they have. */
    void stop() throws InterruptedException {
        stopped = true;
        join();
    }
}

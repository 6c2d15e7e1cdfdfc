package io.rondo.benchmarks.preset.cluster;

import io.rondo.client.Gap;
import io.rondo.client.Reconnect;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * One player of the cluster preset: a {@link StreamClient} through HAProxy's stream port that follows
 * REDIRECT and reconnects a lost stream ({@link Reconnect}), reading its DATA on a daemon thread of its
 * own. It models what a player holds: playback starts when the first fragment arrives and runs at the
 * media's rate, so the media received past the play position is the buffer that covers a gap; for each
 * gap it keeps the gap's length (from the loss to the next DATA) beside that buffer at the loss.
 */
final class Player {

    /** How an OPEN through HAProxy was answered. */
    enum Answer {
        /** ACCEPT: the stream plays. */
        ACCEPTED,
        /** REJECT from a node (every holder of the object full), or HAProxy closed the connection (no node). */
        REFUSED,
        /** REJECT because the node's disk model is still being measured: ask again later. */
        MEASURING
    }

    /** One gap: its length, and the media the player held past its play position when the connection was lost. */
    record GapSeen(long lengthNs, long heldAheadNs, long fragmentsSkipped) {
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final String object;
    private final StreamClient client;
    private final NanoClock clock;
    private final List<GapSeen> gaps = new ArrayList<>();
    private volatile boolean stopping;
    private long fragments;
    private long firstArrivalNs;
    private long firstPresentationNs;
    private long receivedEndNs;
    private boolean failed;
    private String failure;

    private Player(String object, StreamClient client, NanoClock clock) {
        this.object = object;
        this.client = client;
        this.clock = clock;
    }

    /** The answer to a player's OPEN: the player if it was admitted, or why not. */
    record Opened(Answer answer, Player player, String why) {
    }

    /**
     * Connects to {@code port} on 127.0.0.1 and OPENs {@code object} at its start; admitted, the player
     * reads on a thread of its own, reconnecting up to {@code attempts} times after each loss.
     */
    static Opened open(int port, String object, ClientProfile profile, int attempts, NanoClock clock)
        throws IOException {
        InstantSource nanos = () -> Instant.ofEpochSecond(0, clock.nanoTime());
        StreamClient client = StreamClient.connect("127.0.0.1", port, TIMEOUT, StreamClient.DEFAULT_REPORT_INTERVAL,
            new Reconnect(attempts, Duration.ofMillis(100), nanos));
        Accept accept;
        try {
            accept = client.open(object, 0, profile);
        } catch (StreamRejectedException no) {
            client.close();
            String message = no.reject().message();
            return new Opened(message.contains(" rejected, measuring ") ? Answer.MEASURING : Answer.REFUSED, null,
                "REJECT " + no.reject().reason().name());
        } catch (IOException closed) {
            client.close();
            return new Opened(Answer.REFUSED, null, unanswered(closed));
        }
        Player player = new Player(object, client, clock);
        Thread reader = new Thread(() -> player.read(accept.fragmentDurationNs()), "cluster-player");
        reader.setDaemon(true);
        reader.start();
        return new Opened(Answer.ACCEPTED, player, null);
    }

    /** Why an OPEN got no ACCEPT or REJECT, in a few words. */
    private static String unanswered(IOException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains(" went round ")) {
            return "REDIRECTs went round (each node thought another had room)";
        }
        if (message.contains("closed the connection")) {
            return "HAProxy: no node with room (every agent said drain)";
        }
        return message;
    }

    private void read(long fragmentNs) {
        try {
            for (Data data = client.nextData(); data != null; data = client.nextData()) {
                received(data, fragmentNs, clock.nanoTime());
            }
            ended("END before the run was over: the clip is too short for the run");
        } catch (IOException | RuntimeException e) {
            ended(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private synchronized void received(Data data, long fragmentNs, long nowNs) {
        List<Gap> seen = client.gaps();
        if (seen.size() > gaps.size()) {
            Gap gap = seen.get(seen.size() - 1);
            long lostAtNs = gap.lostAt().getEpochSecond() * 1_000_000_000L + gap.lostAt().getNano();
            long playedTo = firstPresentationNs + (lostAtNs - firstArrivalNs);
            gaps.add(new GapSeen(gap.length().toNanos(), Math.max(0, receivedEndNs - playedTo),
                gap.fragmentsSkipped()));
        }
        if (fragments++ == 0) {
            firstArrivalNs = nowNs;
            firstPresentationNs = data.presentationNs();
        }
        receivedEndNs = Math.max(receivedEndNs, data.presentationNs() + fragmentNs);
    }

    private synchronized void ended(String why) {
        if (!stopping) {
            failed = true;
            failure = why;
        }
    }

    /** The object it plays. */
    String object() {
        return object;
    }

    /** Fragments received so far. */
    synchronized long fragments() {
        return fragments;
    }

    /** Its gaps so far, each closed by the DATA after it. */
    synchronized List<GapSeen> gaps() {
        return List.copyOf(gaps);
    }

    /** Whether its stream failed (ended, or lost and not picked up again) while the run went on. */
    synchronized boolean failed() {
        return failed;
    }

    /** Why it failed; null if it did not. */
    synchronized String failure() {
        return failure;
    }

    /** Closes its stream: the run is over. */
    void close() {
        stopping = true;
        try {
            client.close();
        } catch (IOException e) {
            // The connection is gone already (its node was killed): there is nothing left to close.
            ended("closing: " + e.getMessage());
        }
    }
}

package io.rondo.benchmarks.load.stream;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.rondo.client.StreamClient;
import io.rondo.client.StreamUrl;
import io.rondo.client.protocol.Redirect;

import java.util.concurrent.TimeUnit;

/**
 * One player's way round a cluster: the REDIRECTs it follows in a row, and its connection lost
 * mid-stream and made again (papers/004 Section 6), with the gaps that leaves: counted, and the
 * longest measured from the loss to the next DATA, as {@code StreamClient} keeps them. Owned by the
 * player's event loop.
 */
final class Reconnection {

    /** Makes a player's next connection (after a REDIRECT or a loss) on its event loop, with it as the handler. */
    interface Connector {
        void connect(String host, int port, EventLoop loop, PlayerHandler player);
    }

    /** The wait before the first attempt after a loss; each further one waits twice as long. */
    static final long BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(250);

    private final String host;
    private final int port;
    private final Connector connector;
    private final int attempts;
    private int attemptsLeft;
    private int redirectsInARow;
    private int reconnects;
    private int gaps;
    private long longestGapNs;
    /** When the connection was lost, while no DATA has come since; -1 otherwise. */
    private long lostAtNs = -1;

    /**
     * @param host      where the player first connected, and reconnects to
     * @param port      the port there
     * @param connector how it connects; null: it follows no REDIRECT and never reconnects
     * @param attempts  how many connections to try after each loss; 0 never reconnects
     */
    Reconnection(String host, int port, Connector connector, int attempts) {
        this.host = host;
        this.port = port;
        this.connector = connector;
        this.attempts = connector == null ? 0 : attempts;
        this.attemptsLeft = this.attempts;
    }

    /**
     * Follows {@code redirect}: {@code channel} closed, the player connecting to the node named on
     * the same event loop. Null once done; else why not (no connector, a bad URL, or REDIRECTs that
     * go round), for the stream's record.
     */
    String follow(Redirect redirect, Channel channel, PlayerHandler player) {
        String refused = "REDIRECT " + redirect.reason() + " to " + redirect.target();
        if (connector == null) {
            return refused + ", which this player does not follow";
        }
        redirectsInARow++;
        if (redirectsInARow > StreamClient.MAX_REDIRECTS) {
            return refused + ": the nodes send it round";
        }
        StreamUrl target;
        try {
            target = StreamUrl.parse(redirect.target());
        } catch (IllegalArgumentException e) {
            return refused + ", not a stream port";
        }
        EventLoop loop = channel.eventLoop();
        channel.close();
        connector.connect(target.host(), target.port(), loop, player);
        return null;
    }

    /** Closes {@code channel} and connects the player to its origin again after {@code waitNs}. */
    ScheduledFuture<?> again(Channel channel, PlayerHandler player, long waitNs) {
        EventLoop loop = channel.eventLoop();
        channel.close();
        return loop.schedule(() -> connector.connect(host, port, loop, player), waitNs, TimeUnit.NANOSECONDS);
    }

    /** Whether a lost connection is made again at all. */
    boolean enabled() {
        return attempts > 0;
    }

    /** An OPEN was answered with ACCEPT or REJECT: the next REDIRECT starts a new count. */
    void answered() {
        redirectsInARow = 0;
    }

    /**
     * The connection was lost at {@code nowNs} (the first loss since the last DATA), or an attempt to
     * make it again failed: the wait before the next attempt, or -1 if none is left.
     */
    long lost(long nowNs) {
        if (lostAtNs < 0) {
            lostAtNs = nowNs;
        }
        if (attemptsLeft == 0) {
            return -1;
        }
        int attempt = attempts - attemptsLeft;
        attemptsLeft--;
        return BACKOFF_NS << Math.min(20, attempt);
    }

    /** Whether a loss waits for its next DATA: the stream is being picked up again. */
    boolean resuming() {
        return lostAtNs >= 0;
    }

    /** The stream was accepted again after a loss. */
    void reopened() {
        reconnects++;
    }

    /** DATA arrived at {@code nowNs}: a loss before it closes its gap, and the attempts are whole again. */
    void data(long nowNs) {
        if (lostAtNs >= 0) {
            gaps++;
            longestGapNs = Math.max(longestGapNs, nowNs - lostAtNs);
            lostAtNs = -1;
        }
        attemptsLeft = attempts;
    }

    int reconnects() {
        return reconnects;
    }

    int gaps() {
        return gaps;
    }

    long longestGapNs() {
        return longestGapNs;
    }
}

package io.rondo.server.stream;

/**
 * Whether the server takes new streams: an operator may drain it ({@code rondo admin drain}), and
 * a server that stops drains for good. A drained server refuses every OPEN and PUBLISH with a
 * retry-after, while the streams it plays go on and HTTP is served; its agent tells the balancer
 * {@code drain}, so new streams go to other nodes. Thread-safe: two volatile flags.
 */
public final class Drain {

    /**
     * Seconds a client refused by a drained server is asked to wait: HAProxy's agent checks come
     * every 2 s by default, so by then the balancer has heard the drain and sends it elsewhere.
     */
    public static final int RETRY_AFTER_SECONDS = 2;

    private volatile boolean byOperator;
    private volatile boolean stopping;

    /** An operator drains the server ({@code true}) or lets it take streams again ({@code false}). */
    public void byOperator(boolean drained) {
        this.byOperator = drained;
    }

    /** Whether an operator drained the server. */
    public boolean byOperator() {
        return byOperator;
    }

    /** The server is stopping: drained until it has stopped, whatever an operator says. */
    public void stopping() {
        this.stopping = true;
    }

    /** Whether the server is stopping. */
    public boolean isStopping() {
        return stopping;
    }

    /** Whether the server refuses new streams. */
    public boolean draining() {
        return stopping || byOperator;
    }

    /** Why the server refuses new streams, for a person; null while it takes them. */
    public String reason() {
        if (stopping) {
            return "the server is stopping";
        }
        return byOperator ? "an operator drained the server" : null;
    }
}

package io.rondo.benchmarks.load.stream;

import io.rondo.client.protocol.ClientProfile;

/**
 * What a stream load run does: which object of which server, how many players, how their opens
 * spread over the ramp, how long each plays, and what each declares in OPEN.
 *
 * @param host the server's address
 * @param port its stream-protocol port
 * @param objectName the object's name in the catalog
 * @param streams how many players
 * @param rampNs over how long the OPENs are spread, evenly
 * @param durationNs how long each player plays, from its first OPEN, unless END comes first
 * @param profile the client profile every OPEN declares
 * @param retry whether a REJECT for a short resource is retried after its retry-after
 * @param threads the client's event-loop threads
 * @param opening what each player's OPEN asks for, when it opens; null for {@code objectName} from its start
 */
public record LoadSettings(String host, int port, String objectName, int streams, long rampNs, long durationNs,
                    ClientProfile profile, boolean retry, int threads, Opening opening) {

    /** What the {@code index}-th player (from 0) asks for in its OPEN, decided when it opens. */
    @FunctionalInterface
    public interface Opening {
        /** Its object and start position, asked on the player's event loop as it opens. */
        Target target(int index);
    }

    /**
     * One OPEN's object and start.
     *
     * @param objectName the object's name in the catalog
     * @param startNs where to start, in nanoseconds of presentation time; with {@code fromLive}, how far
     *     behind the live edge
     * @param fromLive whether the OPEN counts {@code startNs} back from the live edge (FROM_LIVE)
     */
    public record Target(String objectName, long startNs, boolean fromLive) {
        /** An OPEN at {@code startNs} from the object's start. */
        public Target(String objectName, long startNs) {
            this(objectName, startNs, false);
        }
    }

    /** Every player opens {@code objectName} from its start. */
    public LoadSettings(String host, int port, String objectName, int streams, long rampNs, long durationNs,
                        ClientProfile profile, boolean retry, int threads) {
        this(host, port, objectName, streams, rampNs, durationNs, profile, retry, threads, null);
    }

    /** Checks the counts and times. */
    public LoadSettings {
        if (objectName == null || objectName.isEmpty()) {
            throw new IllegalArgumentException("the object's name is empty");
        }
        if (streams < 1) {
            throw new IllegalArgumentException("--streams must be at least 1, was " + streams);
        }
        if (rampNs < 0) {
            throw new IllegalArgumentException("--ramp must not be negative");
        }
        if (durationNs <= 0) {
            throw new IllegalArgumentException("--duration must be positive");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, was " + threads);
        }
    }

    /** The server and object as a URL, rondo://HOST:PORT/NAME. */
    public String url() {
        return "rondo://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/" + objectName;
    }

    /** What the {@code index}-th player opens. */
    Target target(int index) {
        return opening == null ? new Target(objectName, 0) : opening.target(index);
    }

    /** When the {@code index}-th stream (from 0) opens, after the run starts: evenly over the ramp. */
    long openAtNs(int index) {
        return (long) ((double) rampNs * index / streams);
    }
}

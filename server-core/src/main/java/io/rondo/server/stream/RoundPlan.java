package io.rondo.server.stream;

import io.rondo.server.runtime.Prepared;

/**
 * Which fragment of one stream is read when (papers/001 Sections 1.1 and 2): one C-request per
 * round on the disk holding the next fragment, and at most two fragments held at once (double
 * buffering), so a slow client slows its own stream and never holds more server memory.
 *
 * <p>A stream opened or moved to a position starts at the keyframe at or before it: the fragments
 * from that keyframe up to the position's own are read at once, one after another as buffers come
 * free, ahead of the rounds ({@link #start}, {@link #released}); from the next fragment on, the
 * rounds read one fragment each.
 *
 * <p>Shared by two threads: the round clock calls {@link #planRound}; the stream's event loop
 * calls everything else. One lock guards it; nothing inside waits.
 */
final class RoundPlan {

    /** Fragments a stream may hold at once: the one being sent and the one arriving. */
    static final int BUFFERS = 2;

    /** Rounds in a row a stream may hold both its fragments unsent before it is ended. */
    static final int LAG_ROUNDS = 5;

    /** A read to issue: which fragment, for which start of the stream (a SEEK starts a new one). */
    record Read(int fragment, int generation) {

        /** What {@link #planRound} answers when the client has left both fragments untaken too long. */
        static final Read LAGGING = new Read(-1, -1);
    }

    private final Prepared fragments;
    private int held;
    private int nextToRead;
    private int catchUpTo = -1;
    private long lastPlannedRound = -1;
    private int generation;
    private int roundsBehind;
    private boolean started;
    private boolean paused;
    private boolean closed;

    /** @param fragments the stream's fragments: how many are known (a live recording's grow), and each one's disk */
    RoundPlan(Prepared fragments) {
        this.fragments = fragments;
    }

    /**
     * Starts (or, after a SEEK, restarts) the stream at fragment {@code first}, the one holding
     * the keyframe, for a position in fragment {@code last}. Reads already planned for the old
     * position no longer count once {@code dropped} of them are let go.
     *
     * @return the reads to issue at once, in order (one or two)
     */
    synchronized Read[] start(int first, int last, int dropped) {
        if (started) {
            generation++;
        }
        started = true;
        held -= dropped;
        nextToRead = first;
        catchUpTo = Math.max(first, Math.min(last, fragments.count() - 1));
        lastPlannedRound = -1;
        Read[] reads = new Read[Math.max(0, Math.min(BUFFERS - held, catchUpTo - first + 1))];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = new Read(nextToRead++, generation);
            held++;
        }
        return reads;
    }

    /**
     * The round clock asks: this stream's read on {@code disk} in round {@code round}, null for
     * none, or {@link Read#LAGGING} once the client has left both fragments untaken for
     * {@link #LAG_ROUNDS} rounds.
     */
    synchronized Read planRound(int disk, long round) {
        if (closed || paused || !started || lastPlannedRound == round || nextToRead <= catchUpTo
            || nextToRead >= fragments.count() || fragments.diskIndex(nextToRead) != disk) {
            return null;
        }
        lastPlannedRound = round;
        if (held >= BUFFERS) {
            return ++roundsBehind == LAG_ROUNDS ? Read.LAGGING : null;
        }
        roundsBehind = 0;
        held++;
        return new Read(nextToRead++, generation);
    }

    /**
     * A fragment's buffer came free (sent, dropped or failed). While the stream is still catching
     * up to its start position, the next fragment is returned to be read at once; else null.
     */
    synchronized Read released() {
        held--;
        if (!closed && nextToRead <= catchUpTo && held < BUFFERS) {
            held++;
            return new Read(nextToRead++, generation);
        }
        return null;
    }

    /**
     * A live recording cut fragment {@code fragment}: a stream waiting at the live edge for it, with
     * a buffer free, reads it now (from the recorder's memory), rather than a round later; else null.
     * A stream behind the edge keeps to its rounds.
     */
    synchronized Read cut(int fragment) {
        if (closed || paused || !started || nextToRead != fragment || nextToRead <= catchUpTo || held >= BUFFERS) {
            return null;
        }
        held++;
        return new Read(nextToRead++, generation);
    }

    /** Whether reads issued for {@code generationThen} still belong to the stream. */
    synchronized boolean current(int generationThen) {
        return !closed && generationThen == generation;
    }

    /** The stream's start generation, for reads issued outside this plan. */
    synchronized int generation() {
        return generation;
    }

    synchronized void pause(boolean pause) {
        paused = pause;
    }

    /** The stream ended: no more reads. */
    synchronized void close() {
        closed = true;
    }

    /** Fragments read or being read and not yet let go. */
    synchronized int held() {
        return held;
    }
}

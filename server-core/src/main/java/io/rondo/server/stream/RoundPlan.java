package io.rondo.server.stream;

import io.rondo.scheduler.admission.Cadence;
import io.rondo.server.runtime.Prepared;

import java.util.BitSet;

/**
 * Which fragment of one stream is read when (papers/001 Sections 1.1 and 2): one C-request per
 * round on the disk holding the next fragment, and at most two fragments held at once (double
 * buffering), so a slow client slows its own stream and never holds more server memory.
 *
 * <p>A stream whose {@link Cadence} reads every {@code p} rounds (papers/003: a longer time cycle,
 * or a combined stream) reads, in the rounds of its slot, the {@code p} fragments that play until
 * its next slot, each disk's share of them in one C-request (a disk holds a stream's fragments on
 * it next to each other), and holds at most {@code p + 1}. The rounds count how far ahead of
 * playback the stream has read ({@code ahead}): when a change of cadence or a start leaves a
 * round with nothing read for the next, that round reads up to the stream's next slot at once (the
 * paper's transitory read), so no change ever leaves a round unread.
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

    /** Fragments a start or a SEEK reads at once while it catches up: the one being sent and the one arriving. */
    static final int CATCH_UP_BUFFERS = 2;

    /** Rounds in a row a stream may hold both its fragments unsent before it is ended. */
    static final int LAG_ROUNDS = 5;

    /**
     * A read to issue: which fragments, in one IO, for which start of the stream (a SEEK starts a
     * new one); a round's reads also say the first fragment the round read on any disk, from which
     * each fragment's deadline counts (one round apart).
     *
     * @param fragments  the fragments, in order, next to each other on one disk
     * @param generation the start of the stream they belong to
     * @param roundFirst the first fragment the round read for the stream: it is due at the round after
     */
    record Read(int[] fragments, int generation, int roundFirst) {

        /** What {@link #planRound} answers when the client has left its fragments untaken too long. */
        static final Read LAGGING = new Read(-1, -1);

        /** A read of one fragment. */
        Read(int fragment, int generation) {
            this(new int[] {fragment}, generation, fragment);
        }

        /** The first fragment read. */
        int fragment() {
            return fragments[0];
        }
    }

    private final Prepared fragments;
    private int held;
    private int nextToRead;
    private int catchUpTo = -1;
    private long lastPlannedRound = -1;
    private Cadence cadence = Cadence.EVERY_ROUND;
    /** Fragments read beyond the one playing in {@link #lastPlannedRound}: what the rounds to come hold. */
    private int ahead;
    /** This round's reads: from fragment {@code roundFirst}, {@code roundCount} of them, over the disks. */
    private int roundFirst;
    private int roundCount;
    /** The disks this round already asked for their reads. */
    private final BitSet disksAsked = new BitSet();
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
        ahead = 0;
        roundCount = 0;
        Read[] reads = new Read[Math.max(0, Math.min(CATCH_UP_BUFFERS - held, catchUpTo - first + 1))];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = new Read(nextToRead++, generation);
            held++;
        }
        return reads;
    }

    /**
     * The client asked for fragments up to {@code last} (an HLS part or segment GET): like a start,
     * they are read at once, one after another as buffers come free, rather than one a round.
     *
     * @return the reads to issue at once, in order (none, one or two)
     */
    synchronized Read[] catchUp(int last) {
        int to = Math.min(last, fragments.count() - 1);
        if (closed || !started || to <= catchUpTo || to < nextToRead) {
            return new Read[0];
        }
        catchUpTo = to;
        Read[] reads = new Read[Math.max(0, Math.min(CATCH_UP_BUFFERS - held, catchUpTo - nextToRead + 1))];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = new Read(nextToRead++, generation);
            held++;
        }
        return reads;
    }

    /**
     * The round clock asks: this stream's read on {@code disk} in round {@code round}, null for
     * none, or {@link Read#LAGGING} once the client has left its fragments untaken for
     * {@link #LAG_ROUNDS} rounds.
     */
    synchronized Read planRound(int disk, long round) {
        if (closed || paused || !started) {
            return null;
        }
        if (lastPlannedRound != round) {
            disksAsked.clear();
            Read lagging = planReads(round);
            if (lagging != null) {
                return lagging;
            }
        }
        if (disksAsked.get(disk)) {
            return null;
        }
        disksAsked.set(disk);
        int count = 0;
        for (int i = roundFirst; i < roundFirst + roundCount; i++) {
            count += fragments.diskIndex(i) == disk ? 1 : 0;
        }
        if (count == 0) {
            return null;
        }
        int[] onDisk = new int[count];
        for (int i = roundFirst, j = 0; j < count; i++) {
            if (fragments.diskIndex(i) == disk) {
                onDisk[j++] = i;
            }
        }
        return new Read(onDisk, generation, roundFirst);
    }

    /**
     * A new round: how many fragments it reads for the stream. In a round of its slot, enough to
     * reach the slot after; in another, only if nothing is read for the next round yet, up to the
     * next slot. Never more than the stream may hold: {@code period + 1} fragments.
     */
    private Read planReads(long round) {
        if (lastPlannedRound >= 0) {
            ahead = (int) Math.max(0, ahead - Math.min(Integer.MAX_VALUE, round - lastPlannedRound));
        }
        lastPlannedRound = round;
        roundCount = 0;
        if (nextToRead <= catchUpTo || nextToRead >= fragments.count()) {
            return null;
        }
        int reach = cadence.readsIn(round) ? cadence.period()
            : ahead == 0 ? (int) (cadence.nextAfter(round) - round) : 0;
        int wanted = Math.min(reach - ahead, fragments.count() - nextToRead);
        if (wanted <= 0) {
            return null;
        }
        int count = Math.min(wanted, cadence.period() + 1 - held);
        if (count <= 0) {
            return ++roundsBehind == LAG_ROUNDS ? Read.LAGGING : null;
        }
        roundsBehind = 0;
        roundFirst = nextToRead;
        roundCount = count;
        nextToRead += count;
        held += count;
        ahead += count;
        return null;
    }

    /**
     * From the next round on, the stream reads at {@code next} (the server changed its time cycle
     * or combined it with another). A round that finds nothing read for the round after reads up
     * to the new slot at once, so the change never leaves a round unread.
     */
    synchronized void cadence(Cadence next) {
        cadence = next;
    }

    /** How often the stream reads now. */
    synchronized Cadence cadence() {
        return cadence;
    }

    /**
     * A fragment's buffer came free (sent, dropped or failed). While the stream is still catching
     * up to its start position, the next fragment is returned to be read at once; else null.
     */
    synchronized Read released() {
        held--;
        if (!closed && nextToRead <= catchUpTo && held < CATCH_UP_BUFFERS) {
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
        if (closed || paused || !started || nextToRead != fragment || nextToRead <= catchUpTo
            || held >= cadence.period() + 1) {
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

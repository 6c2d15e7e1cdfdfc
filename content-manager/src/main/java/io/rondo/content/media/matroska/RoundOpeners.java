package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFormatException;
import java.util.Arrays;

/**
 * Where each round's Cluster opens, decided block by block in file order, for ingest
 * ({@link WebmRemuxer}) and live recording ({@link LiveRounds}) alike: round k+1 opens at its
 * first video keyframe where one comes before any block of round k+2, so that a stream starting
 * at round k+1 starts at a keyframe (the frames before it, and the audio muxed beside them, go
 * with round k); else at its first block, the first whose time is in round k+1 or later. Without
 * video every round opens at its first block. Round 0 opens at the first block. A block that plays
 * in an earlier round than the open one (audio muxed late) stays with the open round.
 *
 * <p>So round k closes as soon as round k+1's opener is known: when a video keyframe of round k+1
 * arrives, or a block of round k+2 or later, or without video round k+1's first block. Until then
 * the blocks since round k+1's first are undecided, and held here as their round and keyframe flag.
 * A block of round k+2 or later while round k is open closes the rounds between with no block.
 */
final class RoundOpeners {

    /** Told that the open round closes: it holds the next {@code blocks} blocks not yet in a closed round. */
    @FunctionalInterface
    interface Closer {
        void close(int blocks) throws MediaFormatException;
    }

    private final boolean video;
    private long open;
    private int taken;
    /** The undecided blocks, oldest first from {@link #head}: each its round times two, plus 1 for a video keyframe. */
    private long[] undecided = new long[64];
    private int head;
    private int size;

    /**
     * @param video whether there is a video track whose keyframes open rounds
     */
    RoundOpeners(boolean video) {
        this.video = video;
    }

    /**
     * Takes the next block in file order and closes the rounds it decides.
     *
     * @param round    the round its time falls in, 0 or more
     * @param keyframe whether it is a keyframe of the video track
     */
    void next(long round, boolean keyframe, Closer closer) throws MediaFormatException {
        if (head + size == undecided.length) {
            if (head > 0) {
                System.arraycopy(undecided, head, undecided, 0, size);
                head = 0;
            } else {
                undecided = Arrays.copyOf(undecided, size * 2);
            }
        }
        undecided[head + size] = round << 1 | (keyframe ? 1 : 0);
        size++;
        cut(false, closer);
    }

    /** No block follows: closes every round but the last, which holds the blocks not yet in a closed round. */
    void finish(Closer closer) throws MediaFormatException {
        cut(true, closer);
    }

    private void cut(boolean end, Closer closer) throws MediaFormatException {
        while (true) {
            while (size > 0 && undecided[head] >>> 1 <= open) {
                take(1);
            }
            int opener = opener(end);
            if (opener < 0) {
                return;
            }
            take(opener);
            closer.close(taken);
            taken = 0;
            open++;
        }
    }

    private void take(int n) {
        head += n;
        size -= n;
        taken += n;
    }

    /**
     * Where round k+1 opens among the undecided blocks, the first of which is its first block; -1
     * while that is not known yet, or when no block is undecided.
     */
    private int opener(boolean end) {
        if (size == 0) {
            return -1;
        }
        for (int i = 0; i < size; i++) {
            long round = undecided[head + i] >>> 1;
            if (!video || round > open + 1) {
                return 0;
            }
            if ((undecided[head + i] & 1) != 0 && round == open + 1) {
                return i;
            }
        }
        return end ? 0 : -1;
    }
}

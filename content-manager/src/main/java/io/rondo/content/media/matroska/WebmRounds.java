package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.model.Fragment;
import java.util.Arrays;

/**
 * The plan, per round, in primitive arrays: where its blocks lie in the source, the Cluster the
 * first of them is in, how many blocks and bytes it keeps, and its keyframes.
 */
final class WebmRounds {

    private int count;
    long[] clusterTicks = new long[64];
    long[] spanStart = new long[64];
    long[] spanEnd = new long[64];
    long[] clusterOffset = new long[64];
    long[] clusterEnd = new long[64];
    long[] clusterTimecode = new long[64];
    long[] blockBytes = new long[64];
    int[] blocks = new int[64];
    private long[] lastTicks = new long[64];
    boolean[] inOrder = new boolean[64];
    private long[] keyframeNs = new long[64];
    private boolean[] videoSeen = new boolean[64];
    private boolean[] keyframeFirst = new boolean[64];

    int count() {
        return count;
    }

    /** Opens the next round, whose Cluster's Timecode is {@code ticks}; it holds no block yet. */
    void add(long ticks) {
        if (count == clusterTicks.length) {
            int n = count * 2;
            clusterTicks = Arrays.copyOf(clusterTicks, n);
            spanStart = Arrays.copyOf(spanStart, n);
            spanEnd = Arrays.copyOf(spanEnd, n);
            clusterOffset = Arrays.copyOf(clusterOffset, n);
            clusterEnd = Arrays.copyOf(clusterEnd, n);
            clusterTimecode = Arrays.copyOf(clusterTimecode, n);
            blockBytes = Arrays.copyOf(blockBytes, n);
            blocks = Arrays.copyOf(blocks, n);
            lastTicks = Arrays.copyOf(lastTicks, n);
            inOrder = Arrays.copyOf(inOrder, n);
            keyframeNs = Arrays.copyOf(keyframeNs, n);
            videoSeen = Arrays.copyOf(videoSeen, n);
            keyframeFirst = Arrays.copyOf(keyframeFirst, n);
        }
        clusterTicks[count] = ticks;
        keyframeNs[count] = Fragment.NO_KEYFRAME;
        inOrder[count] = true;
        lastTicks[count] = Long.MIN_VALUE;
        count++;
    }

    /** The current round's first block: where a walk of its span resumes. */
    void startAt(BlockCursor block) {
        int r = count - 1;
        spanStart[r] = block.elementOffset();
        clusterOffset[r] = block.clusterOffset();
        clusterEnd[r] = block.clusterEnd();
        clusterTimecode[r] = block.clusterTimecode();
    }

    long clusterTicks() {
        return clusterTicks[count - 1];
    }

    void append(BlockCursor block) throws MediaFormatException {
        int r = count - 1;
        spanEnd[r] = block.elementEnd();
        if (spanEnd[r] - spanStart[r] > WebmRemuxer.MAX_ROUND_SPAN_BYTES) {
            throw MediaFormatException.unsupported("round " + r + " spans more than " + WebmRemuxer.MAX_ROUND_SPAN_BYTES
                + " bytes of the file, from byte " + spanStart[r] + " to " + block.describe());
        }
        blocks[r]++;
        blockBytes[r] += block.elementEnd() - block.elementOffset();
        inOrder[r] &= block.timecode() >= lastTicks[r];
        lastTicks[r] = Math.max(lastTicks[r], block.timecode());
    }

    /** A block of the video track that decides keyframes. */
    void video(boolean keyframe, long startNs) {
        int r = count - 1;
        if (!videoSeen[r]) {
            videoSeen[r] = true;
            keyframeFirst[r] = keyframe;
        }
        if (keyframe && keyframeNs[r] == Fragment.NO_KEYFRAME) {
            keyframeNs[r] = startNs;
        }
    }

    long keyframeNs(int r) {
        return keyframeNs[r];
    }

    boolean keyframeFirst(int r) {
        return keyframeFirst[r];
    }

    /** The bytes of round {@code r}'s Cluster: its header, its Timecode and its blocks. */
    long clusterBytes(int r) {
        return WebmSegment.clusterBytes(clusterTicks[r], blockBytes[r]);
    }
}

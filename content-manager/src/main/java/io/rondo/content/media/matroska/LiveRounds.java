package io.rondo.content.media.matroska;

import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.model.Fragment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The rounds of a live WebM recording, cut from its blocks as they arrive by the rule of
 * {@link WebmRemuxer}: round k+1's Cluster opens at its first video keyframe where it has one
 * before any block of round k+2 (the frames before it go with round k), else at its first block.
 *
 * <p>Round k is therefore known, and its Cluster written, as soon as round k+1's opener is: when a
 * video keyframe of round k+1 arrives, or a block of round k+2, or, without video, round k+1's
 * first block. Until then the blocks since round k+1's first are held undecided. A round in which
 * no block starts (a gap shorter than the jump limit) is a Cluster with only its Timecode, as
 * ingest writes it.
 */
final class LiveRounds {

    /** The most bytes of blocks held at once: the round being cut and the blocks after it. */
    static final long MAX_HELD_BYTES = 128L << 20;

    /**
     * One block, copied out of what the publisher sent.
     *
     * @param bytes      the SimpleBlock or BlockGroup element, whole
     * @param timecodeAt where its 16-bit relative timecode lies in {@code bytes}
     * @param track      its TrackNumber
     * @param ticks      its time on the recording's timeline, in ticks
     * @param round      the round its time falls in
     * @param video      whether it is of the video track that decides keyframes
     * @param keyframe   whether it is a keyframe
     * @param describe   what to call it in a message
     */
    record Block(byte[] bytes, int timecodeAt, long track, long ticks, long round, boolean video, boolean keyframe,
                 String describe) {
    }

    private final long roundNs;
    private final long scale;
    private final long trackNumber;
    private final boolean hasVideo;
    private final List<Block> blocks = new ArrayList<>();
    private final ArrayDeque<Block> undecided = new ArrayDeque<>();
    private long round;
    private long heldBytes;
    private long endNs;
    private boolean videoSeen;
    private boolean keyframeFirst;
    private long keyframeNs = Fragment.NO_KEYFRAME;

    /**
     * @param video the TrackNumber of the video track whose keyframes open rounds, or -1 for audio only
     */
    LiveRounds(long roundNs, long scale, long video) {
        this.roundNs = roundNs;
        this.scale = scale;
        this.trackNumber = video;
        this.hasVideo = video >= 0;
    }

    /** Whether blocks of {@code track} decide where rounds open. */
    boolean decidesKeyframes(long track) {
        return track == trackNumber;
    }

    /**
     * Takes the next block, in the order the publisher sent them, and adds to {@code out} the
     * rounds it completes.
     *
     * @param endNs when the block stops playing on the recording's timeline
     */
    void add(Block block, long endNs, List<LiveFragment> out) throws MediaFormatException {
        heldBytes += block.bytes().length;
        if (heldBytes > MAX_HELD_BYTES) {
            throw MediaFormatException.unsupported("round " + round + " and the blocks after it reach "
                + heldBytes + " bytes at " + block.describe() + ", more than the " + MAX_HELD_BYTES
                + " a live recording holds before its timestamps move on to the round after next");
        }
        this.endNs = Math.max(this.endNs, endNs);
        undecided.addLast(block);
        cut(false, out);
    }

    /** The publisher finished: adds to {@code out} every round still held, the last one ending with its last block. */
    void finish(List<LiveFragment> out) throws MediaFormatException {
        cut(true, out);
        if (!blocks.isEmpty()) {
            out.add(cluster(Math.max(0, endNs - round * roundNs)));
        }
    }

    private void cut(boolean end, List<LiveFragment> out) throws MediaFormatException {
        while (true) {
            while (!undecided.isEmpty() && undecided.peekFirst().round() <= round) {
                append(undecided.removeFirst());
            }
            int opener = opener(end);
            if (opener < 0) {
                return;
            }
            for (int i = 0; i < opener; i++) {
                append(undecided.removeFirst());
            }
            out.add(cluster(roundNs));
            round++;
        }
    }

    /**
     * Where round k+1 opens among the undecided blocks, the first of which is its first block:
     * at its first video keyframe if one comes before any block of round k+2, else at its first
     * block; -1 while that is not known yet, or when no block is undecided.
     *
     * @param end whether no block follows
     */
    private int opener(boolean end) {
        if (undecided.isEmpty()) {
            return -1;
        }
        int i = 0;
        for (Block b : undecided) {
            if (!hasVideo || b.round() > round + 1) {
                return 0;
            }
            if (b.video() && b.keyframe() && b.round() == round + 1) {
                return i;
            }
            i++;
        }
        return end ? 0 : -1;
    }

    private void append(Block b) {
        blocks.add(b);
        if (b.video()) {
            if (!videoSeen) {
                videoSeen = true;
                keyframeFirst = b.keyframe();
            }
            if (b.keyframe() && keyframeNs == Fragment.NO_KEYFRAME) {
                keyframeNs = Math.max(0, b.ticks() * scale);
            }
        }
    }

    /** The open round's Cluster: its blocks in time order, each with its timecode made relative to the Cluster's. */
    private LiveFragment cluster(long durationNs) throws MediaFormatException {
        long startNs = round * roundNs;
        long clusterTicks = startNs / scale;
        blocks.sort(Comparator.comparingLong(Block::ticks));
        long blockBytes = 0;
        for (Block b : blocks) {
            blockBytes += b.bytes().length;
        }
        ByteBuffer out = ByteBuffer.allocate((int) WebmSegment.clusterBytes(clusterTicks, blockBytes));
        WebmSegment.putClusterHeader(out, clusterTicks, blockBytes);
        for (Block b : blocks) {
            short relative = WebmRemuxer.relativeTimecode(b::describe, b.track(), b.ticks(), clusterTicks, startNs,
                scale);
            ByteBuffer.wrap(b.bytes()).putShort(b.timecodeAt(), relative);
            out.put(b.bytes());
        }
        LiveFragment fragment = new LiveFragment(round, startNs, durationNs, out.array(),
            hasVideo ? keyframeNs : startNs, hasVideo ? keyframeFirst : true);
        heldBytes -= blockBytes;
        blocks.clear();
        videoSeen = false;
        keyframeFirst = false;
        keyframeNs = Fragment.NO_KEYFRAME;
        return fragment;
    }
}

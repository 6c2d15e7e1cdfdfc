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
 * The rounds of a live WebM recording: its blocks held, in the order they came, until
 * {@link RoundOpeners} knows where the next round opens, and then the round's Cluster. A round in
 * which no block starts (a gap shorter than the jump limit) is a Cluster with only its Timecode,
 * as ingest writes it.
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
    private final RoundOpeners openers;
    private final ArrayDeque<Block> held = new ArrayDeque<>();
    private long round;
    private long heldBytes;
    private long endNs;

    /**
     * @param video the TrackNumber of the video track whose keyframes open rounds, or -1 for audio only
     */
    LiveRounds(long roundNs, long scale, long video) {
        this.roundNs = roundNs;
        this.scale = scale;
        this.trackNumber = video;
        this.hasVideo = video >= 0;
        this.openers = new RoundOpeners(hasVideo);
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
        held.addLast(block);
        openers.next(block.round(), block.video() && block.keyframe(), n -> out.add(cluster(n, roundNs)));
    }

    /** The publisher finished: adds to {@code out} every round still held, the last one ending with its last block. */
    void finish(List<LiveFragment> out) throws MediaFormatException {
        openers.finish(n -> out.add(cluster(n, roundNs)));
        if (!held.isEmpty()) {
            out.add(cluster(held.size(), Math.max(0, endNs - round * roundNs)));
        }
    }

    /**
     * The open round's Cluster, of the next {@code n} blocks held: in time order, each with its
     * timecode made relative to the Cluster's.
     */
    private LiveFragment cluster(int n, long durationNs) throws MediaFormatException {
        long startNs = round * roundNs;
        long clusterTicks = startNs / scale;
        List<Block> blocks = new ArrayList<>(n);
        boolean videoSeen = false;
        boolean keyframeFirst = !hasVideo;
        long keyframeNs = hasVideo ? Fragment.NO_KEYFRAME : startNs;
        long blockBytes = 0;
        for (int i = 0; i < n; i++) {
            Block b = held.removeFirst();
            blocks.add(b);
            blockBytes += b.bytes().length;
            if (b.video()) {
                keyframeFirst = videoSeen ? keyframeFirst : b.keyframe();
                videoSeen = true;
                if (b.keyframe() && keyframeNs == Fragment.NO_KEYFRAME) {
                    keyframeNs = Math.max(0, b.ticks() * scale);
                }
            }
        }
        blocks.sort(Comparator.comparingLong(Block::ticks));
        ByteBuffer out = ByteBuffer.allocate((int) WebmSegment.clusterBytes(clusterTicks, blockBytes));
        WebmSegment.putClusterHeader(out, clusterTicks, blockBytes);
        for (Block b : blocks) {
            short relative = WebmRemuxer.relativeTimecode(b::describe, b.track(), b.ticks(), clusterTicks, startNs,
                scale);
            ByteBuffer.wrap(b.bytes()).putShort(b.timecodeAt(), relative);
            out.put(b.bytes());
        }
        heldBytes -= blockBytes;
        return new LiveFragment(round++, startNs, durationNs, out.array(), keyframeNs, keyframeFirst);
    }
}

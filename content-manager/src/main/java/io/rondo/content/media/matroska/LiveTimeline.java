package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFormatException;
import java.util.HashMap;
import java.util.Map;

/**
 * A live recording's timeline in ticks of the source's TimecodeScale: 0 is the first block's
 * timecode, and it stays monotonic whatever the encoder's clock does. A block earlier than the one
 * before it on its track (WebM's codecs do not reorder frames, so an encoder that restarts), or
 * later than every block so far by more than the jump limit, is a discontinuity: the timeline goes
 * on with that block at the start of the round after the latest one any block reached, and the
 * blocks after it follow it at the source's pace.
 */
final class LiveTimeline {

    private final long roundNs;
    private final long maxJumpNs;
    private final long scale;
    private final Map<Long, Long> lastNs = new HashMap<>();
    private boolean started;
    private long baseTicks;
    private long latestNs;
    private int discontinuities;

    LiveTimeline(long roundNs, long maxJumpNs, long scale) {
        this.roundNs = roundNs;
        this.maxJumpNs = maxJumpNs;
        this.scale = scale;
    }

    /**
     * Where the block of {@code track} at {@code ticks} of the source plays on the recording's
     * timeline, in ticks.
     *
     * @param block what to call the block in a message
     */
    long ticks(long track, long ticks, String block) throws MediaFormatException {
        if (!started) {
            started = true;
            baseTicks = ticks;
            latestNs = 0;
        }
        long recording = ticks - baseTicks;
        long ns = ns(recording, block);
        Long last = lastNs.get(track);
        if (ns - latestNs > maxJumpNs || last != null && ns < last) {
            discontinuities++;
            long round = Math.floorDiv(latestNs, roundNs) + 1;
            recording = ceilDiv(round * roundNs, scale);
            baseTicks = ticks - recording;
            ns = recording * scale;
        }
        lastNs.put(track, ns);
        latestNs = Math.max(latestNs, ns);
        return recording;
    }

    /** {@code ticks} in ns, failing on a time too large to be real. */
    long ns(long ticks, String block) throws MediaFormatException {
        return MatroskaDemuxer.ns(ticks, scale, block);
    }

    int discontinuities() {
        return discontinuities;
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}

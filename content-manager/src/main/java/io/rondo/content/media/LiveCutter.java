package io.rondo.content.media;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Cuts one publisher's live container bytes into one fragment per round as they arrive. Not
 * thread-safe: one publisher's connection feeds it.
 *
 * <p><b>Timeline.</b> The recording starts at 0 with its first sample; fragments follow the
 * container's timestamps, not the bytes' arrival. A timestamp that goes backwards, or jumps
 * forward by more than the cutter's jump limit, is a discontinuity: the timeline goes on from the
 * round after the last one cut, so it stays monotonic and never claims a bogus duration, and
 * {@link #discontinuities()} counts it.
 */
public interface LiveCutter {

    /**
     * Takes the next bytes (any chunking: a box or element may be split anywhere) and returns the
     * fragments they complete, in round order, possibly none. {@code bytes} is consumed.
     *
     * @throws MediaFormatException if the bytes are not the container, or a box or element is
     *                              larger than the cutter holds; nothing returned before is affected
     */
    List<LiveFragment> feed(ByteBuffer bytes) throws MediaFormatException;

    /** The publisher finished: the fragments still held, the last one possibly shorter than a round. */
    List<LiveFragment> finish() throws MediaFormatException;

    /** The header, once the container's initialization has arrived; null before. */
    LiveHeader header();

    /** Timestamps that went backwards or jumped, each starting the timeline again after the last round cut. */
    int discontinuities();
}

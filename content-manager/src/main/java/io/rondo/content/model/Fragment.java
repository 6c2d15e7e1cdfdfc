package io.rondo.content.model;

/**
 * One fragment of a continuous object: one round T of presentation, the data a stream needs for
 * one round's display (papers/001 Section 1.1), cut at a frame boundary wherever the encoder put
 * its keyframes. Its bytes are {@code [offset, offset + length)} of the media as stored (the
 * remuxed copy ingest writes); once placed, they live at {@code fileOffset} in file {@code file}
 * of the object's {@link Placement}.
 *
 * <p>A decoder can start only at a random access point (a keyframe). {@code keyframeNs} says where
 * the first one in this fragment is, so that a stream opened or moved to a position starts at the
 * keyframe at or before it. Ingest cuts fragments so that one holding a keyframe starts with it
 * ({@code keyframeFirst}); fragments stored by an earlier Rondo may hold it later, where a Media
 * Source Extensions player still starts (it drops the frames before the first random access point
 * of a segment appended after a discontinuity) but a decoder reading the bytes does not.
 *
 * @param startNs        presentation time the fragment's round starts at, from the start of the media
 * @param durationNs     how long it plays
 * @param offset         where it starts in the media as stored
 * @param length         its size in bytes (VBR: every fragment its own)
 * @param file           index into {@link Placement#files()}, or -1 before placement
 * @param fileOffset     where it starts in that file, or -1 before placement
 * @param keyframeNs     presentation time of its first random access point on every video track
 *                       (for audio-only media, its start), or {@link #NO_KEYFRAME}
 * @param keyframeFirst  whether its first frame on every video track is a random access point, so
 *                       a decoder can start at its first byte
 */
public record Fragment(long startNs, long durationNs, long offset, long length, int file, long fileOffset,
                       long keyframeNs, boolean keyframeFirst) {

    /** {@link #keyframeNs} of a fragment that holds no random access point. */
    public static final long NO_KEYFRAME = -1;

    public Fragment {
        if (startNs < 0 || durationNs < 0 || offset < 0 || length <= 0) {
            throw new IllegalArgumentException("a fragment needs start, duration and offset >= 0 and a length > 0, "
                + "was start " + startNs + " ns, duration " + durationNs + " ns, bytes " + offset + "+" + length);
        }
        if (keyframeNs < NO_KEYFRAME || keyframeFirst && keyframeNs == NO_KEYFRAME) {
            throw new IllegalArgumentException("a fragment that starts at a keyframe needs its time, was "
                + keyframeNs + " ns");
        }
    }

    /** A fragment that starts at a keyframe, as every fragment of audio-only media does. */
    public Fragment(long startNs, long durationNs, long offset, long length, int file, long fileOffset) {
        this(startNs, durationNs, offset, length, file, fileOffset, startNs, true);
    }

    /** A fragment not yet placed on a disk, starting at a keyframe. */
    public static Fragment unplaced(long startNs, long durationNs, long offset, long length) {
        return new Fragment(startNs, durationNs, offset, length, -1, -1);
    }

    /** A fragment not yet placed on a disk, with where its first keyframe is. */
    public static Fragment unplaced(long startNs, long durationNs, long offset, long length, long keyframeNs,
                                    boolean keyframeFirst) {
        return new Fragment(startNs, durationNs, offset, length, -1, -1, keyframeNs, keyframeFirst);
    }

    /** This fragment, stored at {@code fileOffset} of file {@code file}. */
    public Fragment placedAt(int newFile, long newFileOffset) {
        return new Fragment(startNs, durationNs, offset, length, newFile, newFileOffset, keyframeNs, keyframeFirst);
    }

    /** This fragment at {@code newOffset} of the media as stored. */
    public Fragment movedTo(long newOffset) {
        return new Fragment(startNs, durationNs, newOffset, length, file, fileOffset, keyframeNs, keyframeFirst);
    }

    /** Whether a decoder can start somewhere in this fragment. */
    public boolean hasKeyframe() {
        return keyframeNs != NO_KEYFRAME;
    }

    /** Its bytes in the media as stored. */
    public ByteRange range() {
        return new ByteRange(offset, length);
    }
}

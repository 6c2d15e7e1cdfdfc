package io.rondo.content.model;

/**
 * One fragment of a continuous object: about one round of display time, starting on a keyframe
 * where the container allows (papers/001 Section 1.1). Its bytes are {@code [offset, offset +
 * length)} of the media as ingested; once placed, they live at {@code fileOffset} in file
 * {@code file} of the object's {@link Placement}.
 *
 * @param startNs     presentation time of its first frame, from the start of the media
 * @param durationNs  how long it plays
 * @param offset      where it starts in the media as ingested
 * @param length      its size in bytes (VBR: every fragment its own)
 * @param file        index into {@link Placement#files()}, or -1 before placement
 * @param fileOffset  where it starts in that file, or -1 before placement
 */
public record Fragment(long startNs, long durationNs, long offset, long length, int file, long fileOffset) {

    public Fragment {
        if (startNs < 0 || durationNs < 0 || offset < 0 || length <= 0) {
            throw new IllegalArgumentException("a fragment needs start, duration and offset >= 0 and a length > 0, "
                + "was start " + startNs + " ns, duration " + durationNs + " ns, bytes " + offset + "+" + length);
        }
    }

    /** A fragment not yet placed on a disk. */
    public static Fragment unplaced(long startNs, long durationNs, long offset, long length) {
        return new Fragment(startNs, durationNs, offset, length, -1, -1);
    }

    /** This fragment, stored at {@code fileOffset} of file {@code file}. */
    public Fragment placedAt(int newFile, long newFileOffset) {
        return new Fragment(startNs, durationNs, offset, length, newFile, newFileOffset);
    }

    /** Its bytes in the media as ingested. */
    public ByteRange range() {
        return new ByteRange(offset, length);
    }
}

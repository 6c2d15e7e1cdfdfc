package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import java.util.Arrays;

/**
 * One playable track of a source file, whatever its container, as {@link FragmentedMp4Writer} needs
 * it: its {@link TrackHeader} and its samples in decode order, each a byte range of the source with
 * its decode time, composition offset and sync flag. A demuxer (MP4 today, Matroska H.264/AAC
 * later) appends the samples in decode order; the writer copies their bytes untouched.
 *
 * <p>The samples live in primitive arrays, not objects: a 2-hour film has about 500,000 of them
 * (25 video frames and 47 AAC frames a second), and each costs 25 bytes here (offset 8, size 4,
 * decode time 8, composition offset 4, sync 1), about 12 MB for the film. A sample's duration is
 * the distance to the next one's decode time, so that decode times are kept exactly even where the
 * source leaves a gap between fragments; the last one's comes from {@link #decodeEnd()}.
 */
public final class SampleTrack {

    private static final int FIRST_CAPACITY = 1024;

    private final TrackHeader header;
    private long[] offsets;
    private int[] sizes;
    private long[] decodeTimes;
    private int[] compositionOffsets;
    private boolean[] sync;
    private int count;
    private long decodeEnd;

    /** A track with no samples yet, with room for {@code expected} before its arrays grow. */
    public SampleTrack(TrackHeader header, int expected) {
        this.header = header;
        int capacity = Math.max(expected, 1);
        offsets = new long[capacity];
        sizes = new int[capacity];
        decodeTimes = new long[capacity];
        compositionOffsets = new int[capacity];
        sync = new boolean[capacity];
    }

    /** A track with no samples yet. */
    public SampleTrack(TrackHeader header) {
        this(header, FIRST_CAPACITY);
    }

    /** What the init segment says about the track. */
    public TrackHeader header() {
        return header;
    }

    /**
     * Appends a sample.
     *
     * @param offset            where its bytes start in the source
     * @param size              how many bytes it has
     * @param decodeTime        when it is decoded, in the track's timescale; not before the previous sample's
     * @param duration          until the next sample's decode time, in the track's timescale
     * @param compositionOffset its presentation time minus its decode time (negative with version 1 tables)
     * @param isSync            whether a decoder can start at it (a random access point)
     * @throws MediaFormatException if it is decoded before the sample before it
     */
    public void add(long offset, int size, long decodeTime, long duration, int compositionOffset, boolean isSync)
        throws MediaFormatException {
        if (count > 0 && decodeTime < decodeTimes[count - 1]) {
            throw MediaFormatException.corrupt("track " + header.trackId() + " decodes sample " + (count + 1)
                + " at " + decodeTime + " ticks, before sample " + count + " (" + decodeTimes[count - 1] + ")");
        }
        if (count == offsets.length) {
            int capacity = Math.max(FIRST_CAPACITY, count + (count >> 1));
            offsets = Arrays.copyOf(offsets, capacity);
            sizes = Arrays.copyOf(sizes, capacity);
            decodeTimes = Arrays.copyOf(decodeTimes, capacity);
            compositionOffsets = Arrays.copyOf(compositionOffsets, capacity);
            sync = Arrays.copyOf(sync, capacity);
        }
        offsets[count] = offset;
        sizes[count] = size;
        decodeTimes[count] = decodeTime;
        compositionOffsets[count] = compositionOffset;
        sync[count] = isSync;
        count++;
        decodeEnd = decodeTime + duration;
    }

    /** How many samples the track has. */
    public int count() {
        return count;
    }

    long offset(int i) {
        return offsets[i];
    }

    int size(int i) {
        return sizes[i];
    }

    /** When sample {@code i} is decoded, in the track's timescale. */
    public long decodeTime(int i) {
        return decodeTimes[i];
    }

    /** The distance to the next sample's decode time; for the last, to {@link #decodeEnd()}. */
    public long duration(int i) {
        return (i + 1 < count ? decodeTimes[i + 1] : decodeEnd) - decodeTimes[i];
    }

    /** Sample {@code i}'s presentation time minus its decode time. */
    public int compositionOffset(int i) {
        return compositionOffsets[i];
    }

    /** Whether a decoder can start at sample {@code i}. */
    public boolean sync(int i) {
        return sync[i];
    }

    /** When the last sample's decoding ends: its decode time plus its duration. */
    long decodeEnd() {
        return decodeEnd;
    }

    /** Whether this is a video track. */
    boolean video() {
        return header.handler().equals(TrackHeader.VIDEO);
    }
}

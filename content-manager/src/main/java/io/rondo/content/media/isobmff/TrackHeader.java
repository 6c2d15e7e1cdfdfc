package io.rondo.content.media.isobmff;

import java.nio.ByteBuffer;

/**
 * What the init segment says about a track, as a demuxer found it: enough for
 * {@link FragmentedMp4Writer} to write the track's {@code trak} and {@code trex}.
 *
 * @param trackId        the track's number, 1 or more, unique in the file
 * @param handler        {@link #VIDEO} or {@link #AUDIO}
 * @param timescale      ticks a second of its decode and composition times
 * @param sampleEntry    its sample entry, a whole box ({@code avc1}, {@code mp4a}, {@code Opus}, ...) with
 *                       the decoder configuration inside, copied verbatim into the stored stsd
 * @param entryOffset    where that entry starts in the source, for messages; -1 for an entry a demuxer
 *                       made from another container's codec private data
 * @param language       the ISO 639-2/T code packed in 15 bits as mdhd holds it ({@code und} = 0x55C4)
 * @param flags          the tkhd flags (1 enabled, 2 in movie, 4 in preview)
 * @param alternateGroup the tkhd alternate group: tracks of one group are alternatives (languages)
 * @param volume         the tkhd volume, 8.8 fixed point (0x0100 for audio, 0 for video)
 * @param matrix         the tkhd transformation matrix, nine 32-bit values (a phone's rotation lives here)
 * @param width          the tkhd width, 16.16 fixed point (0 for audio)
 * @param height         the tkhd height, 16.16 fixed point
 * @param editShift      the media time, in ticks, that the edit list presents at time 0: the B-frame
 *                       delay or AAC priming that ffmpeg writes as an edit's media_time; negative for a
 *                       track whose presentation starts late (an empty edit); 0 without an edit list
 * @param editEndNs      when the edit list ends the track's presentation, or -1 where it does not say
 */
public record TrackHeader(long trackId, String handler, long timescale, byte[] sampleEntry, long entryOffset,
                          int language, int flags, int alternateGroup, int volume, int[] matrix, long width,
                          long height, long editShift, long editEndNs) {

    /** The handler of a video track. */
    public static final String VIDEO = "vide";
    /** The handler of an audio track. */
    public static final String AUDIO = "soun";
    /** The language of a track that does not say: {@code und}. */
    public static final int UNDETERMINED = 0x55C4;
    /** The identity matrix of tkhd and mvhd. */
    public static final int[] IDENTITY = {0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000};

    public TrackHeader {
        if (trackId <= 0 || trackId > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("a track id is 1 to 2^32 - 1, was " + trackId);
        }
        if (timescale <= 0 || timescale > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("a timescale is 1 to 2^32 - 1, was " + timescale);
        }
        if (sampleEntry.length < 8) {
            throw new IllegalArgumentException("a sample entry is a box of 8 bytes or more, was " + sampleEntry.length);
        }
        if (matrix.length != IDENTITY.length) {
            throw new IllegalArgumentException("a matrix has nine values, was " + matrix.length);
        }
        sampleEntry = sampleEntry.clone();
        matrix = matrix.clone();
    }

    @Override
    public byte[] sampleEntry() {
        return sampleEntry.clone();
    }

    @Override
    public int[] matrix() {
        return matrix.clone();
    }

    /** Where the sample entry came from, for messages: {@code the avc1 at byte 417}. */
    String entryOrigin() {
        return entryOffset >= 0 ? "the " + entryType() + " at byte " + entryOffset
            : "the " + entryType() + " sample entry of track " + trackId;
    }

    /** The sample entry's type: {@code avc1}, {@code mp4a}, ... */
    String entryType() {
        return IsoBoxes.fourcc(ByteBuffer.wrap(sampleEntry), 4);
    }
}

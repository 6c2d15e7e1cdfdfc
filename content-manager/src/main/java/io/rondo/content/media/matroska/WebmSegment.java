package io.rondo.content.media.matroska;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * The WebM that a remuxer stores, whatever it read (Matroska, Ogg): an init segment of the EBML
 * header, a Segment of unknown size (so that Clusters can follow without a size to patch), Info
 * and Tracks; then one Cluster a round, a header and Timecode written here before the round's
 * blocks.
 */
public final class WebmSegment {

    /** The MuxingApp of every stored copy, and its WritingApp where the source names none. */
    private static final String MUXING_APP = "Rondo";
    private static final int DOC_TYPE_VERSION = 4;
    private static final int DOC_TYPE_READ_VERSION = 2;
    private static final int TIMECODE_HEADER_BYTES = 2;

    private WebmSegment() {
    }

    /**
     * The init segment: EBML header, the Segment's header of unknown size, Info and Tracks.
     *
     * @param timecodeScale ns per tick of the Clusters' and blocks' timecodes
     * @param writingApp    the source's WritingApp, kept; null where it names none
     * @param durationNs    the media's duration, or -1 for media still being recorded: Info then has no Duration
     * @param trackEntries  the TrackEntry elements, whole
     */
    public static byte[] init(long timecodeScale, String writingApp, long durationNs, byte[]... trackEntries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(EbmlWriter.element(Ebml.EBML, EbmlWriter.uint(Ebml.EBML_VERSION, 1),
            EbmlWriter.uint(Ebml.EBML_READ_VERSION, 1), EbmlWriter.uint(Ebml.EBML_MAX_ID_LENGTH, 4),
            EbmlWriter.uint(Ebml.EBML_MAX_SIZE_LENGTH, 8), EbmlWriter.string(Ebml.DOC_TYPE, "webm"),
            EbmlWriter.uint(Ebml.DOC_TYPE_VERSION, DOC_TYPE_VERSION),
            EbmlWriter.uint(Ebml.DOC_TYPE_READ_VERSION, DOC_TYPE_READ_VERSION)));
        out.writeBytes(EbmlWriter.unknownSizeHeader(Ebml.SEGMENT));
        byte[] duration = durationNs < 0 ? new byte[0]
            : EbmlWriter.float64(Ebml.DURATION, (double) durationNs / timecodeScale);
        out.writeBytes(EbmlWriter.element(Ebml.INFO, EbmlWriter.uint(Ebml.TIMECODE_SCALE, timecodeScale),
            EbmlWriter.string(Ebml.MUXING_APP, MUXING_APP),
            EbmlWriter.string(Ebml.WRITING_APP, writingApp != null ? writingApp : MUXING_APP), duration));
        out.writeBytes(EbmlWriter.element(Ebml.TRACKS, trackEntries));
        return out.toByteArray();
    }

    /** The bytes of a Cluster at {@code clusterTicks} with {@code blockBytes} of blocks: header, Timecode, blocks. */
    public static long clusterBytes(long clusterTicks, long blockBytes) {
        long body = TIMECODE_HEADER_BYTES + EbmlWriter.uintLength(clusterTicks) + blockBytes;
        return EbmlWriter.headerLength(Ebml.CLUSTER, body) + body;
    }

    /** Puts the header of that Cluster and its Timecode into {@code out}; its blocks follow. */
    public static void putClusterHeader(ByteBuffer out, long clusterTicks, long blockBytes) {
        int timecodeBytes = EbmlWriter.uintLength(clusterTicks);
        EbmlWriter.putHeader(out, Ebml.CLUSTER, TIMECODE_HEADER_BYTES + timecodeBytes + blockBytes);
        EbmlWriter.putHeader(out, Ebml.TIMECODE, timecodeBytes);
        EbmlWriter.putUint(out, clusterTicks, timecodeBytes);
    }
}

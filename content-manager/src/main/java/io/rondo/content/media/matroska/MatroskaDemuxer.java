package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.matroska.Ebml.Header;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a WebM or Matroska file for a remuxer (RFC 9559): the EBML header's DocType, the Segment's
 * Info and Tracks, and then, through a {@link BlockCursor}, every block in file order with its
 * track, absolute time, where its bytes lie, whether it is a keyframe and how it is laced. It
 * reads element and block headers only; a remuxer copies the payload itself.
 *
 * <p>It is the demuxing half of any remux of Matroska: {@link WebmRemuxer} re-clusters blocks into
 * WebM, and the same walk can feed an fMP4 writer with the frames of an H.264/AAC Matroska file.
 */
final class MatroskaDemuxer {

    static final int VIDEO = 1;
    static final int AUDIO = 2;
    /** TrackType of subtitles. */
    static final int SUBTITLE = 0x11;

    private static final long DEFAULT_TIMECODE_SCALE = 1_000_000;
    private static final double DEFAULT_SAMPLING_FREQUENCY = 8000;

    /** Bytes of the source by file offset, as {@link MediaFile#peek}: the file, or part of it in memory. */
    @FunctionalInterface
    interface Source {

        /** Up to {@code n} bytes from {@code pos}, fewer only where the source ends; valid until the next call. */
        ByteBuffer peek(long pos, int n) throws IOException;
    }

    /**
     * One TrackEntry.
     *
     * @param number            the TrackNumber blocks refer to
     * @param type              {@link #VIDEO}, {@link #AUDIO} or another TrackType (subtitles, ...)
     * @param codecId           e.g. {@code V_VP9}
     * @param codecPrivate      its CodecPrivate, or null
     * @param codecPrivateOffset where CodecPrivate's data is in the file, for messages
     * @param defaultDurationNs how long each frame plays, or 0 when not given
     * @param compressed        whether its blocks are compressed by the muxer (ContentCompression, e.g.
     *                          header stripping), which a browser cannot undo
     * @param entry             the whole TrackEntry element, header included, as in the file
     * @param codecDelayNs      its CodecDelay: how much of the decoded start is priming, not to be played
     * @param pixelWidth        Video's PixelWidth, or 0
     * @param pixelHeight       Video's PixelHeight, or 0
     * @param samplingFrequency Audio's SamplingFrequency in Hz (8000 when not given, as Matroska defaults)
     * @param channels          Audio's Channels (1 when not given)
     */
    record Track(long number, long type, String codecId, ByteBuffer codecPrivate, long codecPrivateOffset,
                 long defaultDurationNs, boolean compressed, ByteBuffer entry, long codecDelayNs, long pixelWidth,
                 long pixelHeight, double samplingFrequency, long channels) {

        boolean isVideo() {
            return type == VIDEO;
        }

        boolean isAudio() {
            return type == AUDIO;
        }
    }

    /**
     * What Info says: ns per tick of the timecodes, Duration, WritingApp.
     *
     * @param timecodeScale  ns per tick of block and Cluster timecodes
     * @param durationTicks  Duration in ticks, or NaN when Info has none
     * @param durationHeader the Duration element, for messages; null when there is none
     * @param writingApp     WritingApp, or null
     */
    record Info(long timecodeScale, double durationTicks, Header durationHeader, String writingApp) {

        /** What Matroska assumes without an Info: 1 ms ticks, no Duration, no WritingApp. */
        static final Info DEFAULT = new Info(DEFAULT_TIMECODE_SCALE, Double.NaN, null, null);

        /** The Info element {@code info}, whose data is {@code body}. */
        static Info read(Header info, ByteBuffer body) throws MediaFormatException {
            long[] scale = {DEFAULT_TIMECODE_SCALE};
            double[] duration = {Double.NaN};
            Header[] durationAt = {null};
            String[] app = {null};
            Ebml.children(body, info.dataOffset(), info, (h, data) -> {
                if (h.id() == Ebml.TIMECODE_SCALE) {
                    scale[0] = Ebml.uint(data, h);
                    if (scale[0] == 0) {
                        throw MediaFormatException.corrupt(h.describe() + " is 0; a timecode scale must be positive");
                    }
                } else if (h.id() == Ebml.DURATION) {
                    duration[0] = Ebml.floatValue(data, h);
                    durationAt[0] = h;
                } else if (h.id() == Ebml.WRITING_APP) {
                    app[0] = Ebml.string(data);
                }
            });
            return new Info(scale[0], duration[0], durationAt[0], app[0]);
        }
    }

    private final MediaFile in;
    private final String docType;
    private final long segmentLimit;
    private Info info = Info.DEFAULT;
    private List<Track> tracks;
    private long firstCluster = -1;

    private MatroskaDemuxer(MediaFile in, String docType, Header segment) {
        this.in = in;
        this.docType = docType;
        this.segmentLimit = segment.unknownSize() ? in.size() : segment.end();
    }

    /**
     * Reads the headers of the EBML file {@code in} up to its first Cluster.
     *
     * @return empty if the EBML document is neither {@code webm} nor {@code matroska}
     * @throws MediaFormatException if it is truncated or corrupt, has no Tracks or no Cluster
     */
    static Optional<MatroskaDemuxer> open(MediaFile in) throws IOException {
        Header ebml = Ebml.header(in, 0);
        String[] docType = {"matroska"};
        Ebml.children(readBody(in, ebml), ebml.dataOffset(), ebml, (h, data) -> {
            if (h.id() == Ebml.DOC_TYPE) {
                docType[0] = Ebml.string(data);
            }
        });
        if (!docType[0].equals("webm") && !docType[0].equals("matroska")) {
            return Optional.empty();
        }
        Header segment = findSegment(in, checkedEnd(in, ebml));
        MatroskaDemuxer demuxer = new MatroskaDemuxer(in, docType[0], segment);
        demuxer.readHeaders(segment);
        return Optional.of(demuxer);
    }

    String docType() {
        return docType;
    }

    /** Nanoseconds per tick of block and cluster timecodes. */
    long timecodeScale() {
        return info.timecodeScale();
    }

    /** Info's Duration in ticks, or NaN when Info has none. */
    double durationTicks() {
        return info.durationTicks();
    }

    /** Info's WritingApp, or null. */
    String writingApp() {
        return info.writingApp();
    }

    List<Track> tracks() {
        return tracks;
    }

    /** The track with TrackNumber {@code number}, or null: blocks may name a track that Tracks lacks. */
    Track track(long number) {
        for (Track t : tracks) {
            if (t.number() == number) {
                return t;
            }
        }
        return null;
    }

    /** Where the Segment's data ends: its size, or the end of the file for a Segment of unknown size. */
    long segmentLimit() {
        return segmentLimit;
    }

    /** A cursor over every block of the file, from its first Cluster. */
    BlockCursor blocks() {
        long limit = Math.min(segmentLimit, in.size());
        return new BlockCursor(in::peek, firstCluster, limit, limit, in.size(), -1, BlockCursor.NOT_IN_CLUSTER, -1);
    }

    /**
     * A cursor that resumes inside a Cluster, at a block another cursor found at {@code from}, and
     * walks the part of the file that {@code source} holds, up to {@code limit}. It needs that
     * Cluster's offset, end ({@link BlockCursor#UNKNOWN_END} for an unknown size) and Timecode. The
     * Clusters it enters may end past {@code limit}: the cursor that planned the walk checked them.
     */
    BlockCursor blocks(Source source, long from, long limit, long clusterOffset, long clusterEnd,
                       long clusterTimecode) {
        return new BlockCursor(source, from, limit, Long.MAX_VALUE, limit, clusterOffset, clusterEnd,
            clusterTimecode);
    }

    /** {@code ticks} of TimecodeScale in ns, failing on overflow. */
    long ns(long ticks, String where) throws MediaFormatException {
        return ns(ticks, info.timecodeScale(), where);
    }

    /** {@code ticks} of {@code scale} ns in ns, failing on overflow. */
    static long ns(long ticks, long scale, String where) throws MediaFormatException {
        try {
            return Math.multiplyExact(ticks, scale);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(where + " holds a time of " + ticks + " x " + scale
                + " ns, too large to be real");
        }
    }

    /** Info's Duration in ns, or -1 when there is none (or a Duration of 0, as live muxers write). */
    long durationNs() throws MediaFormatException {
        double durationTicks = info.durationTicks();
        if (Double.isNaN(durationTicks) || durationTicks == 0) {
            return -1;
        }
        double ns = durationTicks * info.timecodeScale();
        if (!(ns > 0) || ns > Long.MAX_VALUE / 2.0) {
            throw MediaFormatException.corrupt(info.durationHeader().describe() + " is " + durationTicks
                + ", which is no duration");
        }
        return Math.round(ns);
    }

    private static Header findSegment(MediaFile in, long pos) throws IOException {
        while (true) {
            if (pos >= in.size()) {
                throw MediaFormatException.truncated("the file ends at byte " + in.size()
                    + ", after the EBML header and before any Segment");
            }
            Header h = Ebml.header(in, pos);
            if (h.id() == Ebml.SEGMENT) {
                return h;
            }
            if (h.id() != Ebml.VOID || h.unknownSize()) {
                throw MediaFormatException.corrupt("a Segment should follow the EBML header at byte " + pos
                    + ", but " + h.describe() + " does");
            }
            pos = checkedEnd(in, h);
        }
    }

    /** The Segment's children up to the first Cluster: Info and Tracks are read, the rest skipped. */
    private void readHeaders(Header segment) throws IOException {
        long limit = Math.min(segmentLimit, in.size());
        long pos = segment.dataOffset();
        while (pos < limit) {
            Header h = Ebml.header(in, pos);
            if (h.id() == Ebml.CLUSTER) {
                if (tracks == null) {
                    throw MediaFormatException.corrupt(h.describe() + " comes before any Tracks:"
                        + " the codecs are not known");
                }
                firstCluster = pos;
                return;
            }
            if (h.id() == Ebml.EBML || h.id() == Ebml.SEGMENT) {
                break;
            }
            long end = checkedEnd(in, h);
            if (h.id() == Ebml.INFO) {
                info = Info.read(h, readBody(in, h));
            } else if (h.id() == Ebml.TRACKS) {
                tracks = readTracks(h, readBody(in, h));
            }
            pos = end;
        }
        if (segmentLimit > in.size()) {
            throw MediaFormatException.truncated("Segment", segment.offset(), segment.size(), in.size());
        }
        throw MediaFormatException.corrupt("the Segment at byte " + segment.offset()
            + " holds no Cluster: there is no media to play");
    }

    /**
     * The TrackEntries of the Tracks element {@code header}, whose data is {@code body}.
     *
     * @throws MediaFormatException if one is corrupt, or none is audio or video
     */
    static List<Track> readTracks(Header header, ByteBuffer body) throws MediaFormatException {
        List<Track> found = new ArrayList<>();
        Ebml.children(body, header.dataOffset(), header, (entry, entryData) -> {
            if (entry.id() == Ebml.TRACK_ENTRY) {
                ByteBuffer whole = body.slice((int) (entry.offset() - header.dataOffset()),
                    (int) (entry.end() - entry.offset()));
                found.add(readTrackEntry(entry, entryData, whole));
            }
        });
        if (found.stream().noneMatch(t -> t.isVideo() || t.isAudio())) {
            throw MediaFormatException.unsupported(header.describe() + " holds no audio or video track");
        }
        return List.copyOf(found);
    }

    private static Track readTrackEntry(Header entry, ByteBuffer entryData, ByteBuffer whole)
        throws MediaFormatException {
        TrackEntry fields = new TrackEntry();
        Ebml.children(entryData, entry.dataOffset(), entry, fields::element);
        if (fields.number == 0) {
            throw MediaFormatException.corrupt("the TrackEntry at byte " + entry.offset() + " has no TrackNumber");
        }
        long kind = fields.type;
        if (kind == 0) {
            kind = fields.codecId.startsWith("V_") ? VIDEO : fields.codecId.startsWith("A_") ? AUDIO : 0;
        }
        return new Track(fields.number, kind, fields.codecId, fields.codecPrivate, fields.codecPrivateOffset,
            fields.defaultDurationNs, fields.compressed, whole, fields.codecDelayNs, fields.pixelWidth,
            fields.pixelHeight, fields.samplingFrequency, fields.channels);
    }

    /** What one TrackEntry says, element by element, with Matroska's defaults for what it leaves out. */
    private static final class TrackEntry {
        long number;
        long type;
        long defaultDurationNs;
        String codecId = "";
        ByteBuffer codecPrivate;
        long codecPrivateOffset;
        boolean compressed;
        long codecDelayNs;
        long pixelWidth;
        long pixelHeight;
        double samplingFrequency = DEFAULT_SAMPLING_FREQUENCY;
        long channels = 1;

        void element(Header h, ByteBuffer data) throws MediaFormatException {
            if (h.id() == Ebml.TRACK_NUMBER) {
                number = Ebml.uint(data, h);
            } else if (h.id() == Ebml.TRACK_TYPE) {
                type = Ebml.uint(data, h);
            } else if (h.id() == Ebml.DEFAULT_DURATION) {
                defaultDurationNs = Ebml.uint(data, h);
            } else if (h.id() == Ebml.CODEC_ID) {
                codecId = Ebml.string(data);
            } else if (h.id() == Ebml.CODEC_PRIVATE) {
                codecPrivate = data;
                codecPrivateOffset = h.dataOffset();
            } else if (h.id() == Ebml.CONTENT_ENCODINGS) {
                compressed = holdsCompression(h, data);
            } else if (h.id() == Ebml.CODEC_DELAY) {
                codecDelayNs = Ebml.uint(data, h);
            } else if (h.id() == Ebml.VIDEO) {
                Ebml.children(data, h.dataOffset(), h, this::video);
            } else if (h.id() == Ebml.AUDIO) {
                Ebml.children(data, h.dataOffset(), h, this::audio);
            }
        }

        private void video(Header v, ByteBuffer data) throws MediaFormatException {
            if (v.id() == Ebml.PIXEL_WIDTH) {
                pixelWidth = Ebml.uint(data, v);
            } else if (v.id() == Ebml.PIXEL_HEIGHT) {
                pixelHeight = Ebml.uint(data, v);
            }
        }

        private void audio(Header a, ByteBuffer data) throws MediaFormatException {
            if (a.id() == Ebml.SAMPLING_FREQUENCY) {
                samplingFrequency = Ebml.floatValue(data, a);
            } else if (a.id() == Ebml.CHANNELS) {
                channels = Ebml.uint(data, a);
            }
        }
    }

    private static boolean holdsCompression(Header encodings, ByteBuffer data) throws MediaFormatException {
        boolean[] found = {false};
        Ebml.children(data, encodings.dataOffset(), encodings, (encoding, encodingData) -> {
            if (encoding.id() == Ebml.CONTENT_ENCODING) {
                Ebml.children(encodingData, encoding.dataOffset(), encoding, (h, d) -> {
                    found[0] |= h.id() == Ebml.CONTENT_COMPRESSION;
                });
            }
        });
        return found[0];
    }

    private static long checkedEnd(MediaFile in, Header h) throws MediaFormatException {
        if (h.unknownSize()) {
            throw MediaFormatException.corrupt(h.describe() + " has an unknown size, which only a Segment or a"
                + " Cluster may have");
        }
        if (h.end() > in.size()) {
            throw MediaFormatException.truncated(h.name(), h.offset(), h.size(), in.size());
        }
        return h.end();
    }

    private static ByteBuffer readBody(MediaFile in, Header h) throws IOException {
        long end = checkedEnd(in, h);
        if (h.size() > MediaFile.MAX_BODY_BYTES) {
            throw MediaFormatException.unsupported(h.describe() + " is " + h.size() + " bytes, more than the "
                + MediaFile.MAX_BODY_BYTES + " an indexer reads");
        }
        return in.read(h.dataOffset(), (int) (end - h.dataOffset()));
    }
}

package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.matroska.Ebml.Header;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
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

    private final MediaFile in;
    private final String docType;
    private final long segmentLimit;
    private long timecodeScale = DEFAULT_TIMECODE_SCALE;
    private double durationTicks = Double.NaN;
    private Header durationHeader;
    private String writingApp;
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
        return timecodeScale;
    }

    /** Info's Duration in ticks, or NaN when Info has none. */
    double durationTicks() {
        return durationTicks;
    }

    /** Info's WritingApp, or null. */
    String writingApp() {
        return writingApp;
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
        try {
            return Math.multiplyExact(ticks, timecodeScale);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(where + " holds a time of " + ticks + " x " + timecodeScale
                + " ns, too large to be real");
        }
    }

    /** Info's Duration in ns, or -1 when there is none (or a Duration of 0, as live muxers write). */
    long durationNs() throws MediaFormatException {
        if (Double.isNaN(durationTicks) || durationTicks == 0) {
            return -1;
        }
        double ns = durationTicks * timecodeScale;
        if (!(ns > 0) || ns > Long.MAX_VALUE / 2.0) {
            throw MediaFormatException.corrupt(durationHeader.describe() + " is " + durationTicks
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
                readInfo(h);
            } else if (h.id() == Ebml.TRACKS) {
                tracks = readTracks(h);
            }
            pos = end;
        }
        if (segmentLimit > in.size()) {
            throw MediaFormatException.truncated("Segment", segment.offset(), segment.size(), in.size());
        }
        throw MediaFormatException.corrupt("the Segment at byte " + segment.offset()
            + " holds no Cluster: there is no media to play");
    }

    private void readInfo(Header info) throws IOException {
        Ebml.children(readBody(in, info), info.dataOffset(), info, (h, data) -> {
            if (h.id() == Ebml.TIMECODE_SCALE) {
                timecodeScale = Ebml.uint(data, h);
                if (timecodeScale == 0) {
                    throw MediaFormatException.corrupt(h.describe() + " is 0; a timecode scale must be positive");
                }
            } else if (h.id() == Ebml.DURATION) {
                durationTicks = Ebml.floatValue(data, h);
                durationHeader = h;
            } else if (h.id() == Ebml.WRITING_APP) {
                writingApp = Ebml.string(data);
            }
        });
    }

    private List<Track> readTracks(Header header) throws IOException {
        List<Track> found = new ArrayList<>();
        ByteBuffer body = readBody(in, header);
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

    /**
     * Walks the blocks (SimpleBlock, or BlockGroup with its Block) in file order, one {@link #next}
     * at a time, through Clusters of known or unknown size, skipping Cues, Tags, Void and whatever
     * else lies between them. The fields of the current block are valid until the next call.
     */
    static final class BlockCursor {

        /** {@link #clusterEnd} before the first Cluster. */
        static final long NOT_IN_CLUSTER = -2;

        /** {@link #clusterEnd} of a Cluster of unknown size: it ends at the next top-level element. */
        static final long UNKNOWN_END = -1;

        private static final int BLOCK_HEAD_BYTES = 8 + 2 + 1 + 1;
        /** The longest lace header read: what one peek of a {@link MediaFile} gives. */
        private static final int MAX_LACE_HEADER_BYTES = MediaFile.WINDOW_BYTES;

        private final Source source;
        private final long limit;
        private final long clusterLimit;
        private final long fileSize;
        private long pos;
        private long clusterOffset;
        private long clusterEnd;
        private long clusterTimecode;

        private boolean simple;
        private long elementOffset;
        private long elementEnd;
        private long track;
        private long timecodeOffset;
        private long timecode;
        private long frameOffset;
        private long frameEnd;
        private boolean keyframe;
        private int lacing;
        private int frames;
        private long durationTicks;

        private BlockCursor(Source source, long from, long limit, long clusterLimit, long fileSize, long clusterOffset,
                            long clusterEnd, long clusterTimecode) {
            this.source = source;
            this.pos = from;
            this.limit = limit;
            this.clusterLimit = clusterLimit;
            this.fileSize = fileSize;
            this.clusterOffset = clusterOffset;
            this.clusterEnd = clusterEnd;
            this.clusterTimecode = clusterTimecode;
        }

        /** Moves to the next block; false at the end of the Segment (or of the part of the file given). */
        boolean next() throws IOException {
            while (true) {
                if (clusterEnd >= 0 && pos >= clusterEnd) {
                    clusterEnd = NOT_IN_CLUSTER;
                }
                if (pos >= limit) {
                    return false;
                }
                boolean knownCluster = clusterEnd >= 0;
                long bound = knownCluster ? clusterEnd : limit;
                Header h = header(pos, bound);
                int id = h.id();
                if (!knownCluster && Ebml.isTopLevel(id)) {
                    clusterEnd = NOT_IN_CLUSTER;
                    if (id == Ebml.EBML || id == Ebml.SEGMENT) {
                        pos = limit;
                        return false;
                    }
                    if (id == Ebml.CLUSTER) {
                        enterCluster(h);
                    } else {
                        pos = end(h, limit);
                    }
                    continue;
                }
                long end = end(h, bound);
                if (clusterEnd == NOT_IN_CLUSTER) {
                    if (id == Ebml.SIMPLE_BLOCK || id == Ebml.BLOCK_GROUP || id == Ebml.TIMECODE) {
                        throw MediaFormatException.corrupt(h.describe() + " lies outside any Cluster");
                    }
                    pos = end;
                    continue;
                }
                pos = end;
                if (id == Ebml.TIMECODE) {
                    if (h.size() > 8) {
                        throw MediaFormatException.corrupt(h.describe() + " is an integer of " + h.size()
                            + " bytes; at most 8 are allowed");
                    }
                    clusterTimecode = Ebml.uint(source.peek(h.dataOffset(), (int) h.size()), h);
                } else if (id == Ebml.SIMPLE_BLOCK) {
                    readBlock(h, h, true, false, -1);
                    return true;
                } else if (id == Ebml.BLOCK_GROUP) {
                    readBlockGroup(h);
                    return true;
                }
            }
        }

        private void enterCluster(Header h) throws MediaFormatException {
            clusterOffset = h.offset();
            clusterTimecode = -1;
            if (h.unknownSize()) {
                clusterEnd = UNKNOWN_END;
            } else {
                clusterEnd = end(h, clusterLimit);
            }
            pos = h.dataOffset();
        }

        private void readBlockGroup(Header group) throws IOException {
            Header block = null;
            boolean referenced = false;
            long duration = -1;
            long q = group.dataOffset();
            while (q < group.end()) {
                Header c = header(q, group.end());
                long end = end(c, group.end());
                if (c.id() == Ebml.BLOCK) {
                    block = c;
                } else if (c.id() == Ebml.REFERENCE_BLOCK) {
                    referenced = true;
                } else if (c.id() == Ebml.BLOCK_DURATION) {
                    if (c.size() > 8) {
                        throw MediaFormatException.corrupt(c.describe() + " is an integer of " + c.size()
                            + " bytes; at most 8 are allowed");
                    }
                    duration = Ebml.uint(source.peek(c.dataOffset(), (int) c.size()), c);
                }
                q = end;
            }
            if (block == null) {
                throw MediaFormatException.corrupt(group.describe() + " holds no Block");
            }
            readBlock(group, block, false, !referenced, duration);
        }

        /** Reads the header of a SimpleBlock or a Block: track number (a VINT), relative timecode, flags. */
        private void readBlock(Header element, Header block, boolean isSimple, boolean groupKeyframe, long duration)
            throws IOException {
            if (clusterTimecode < 0) {
                throw MediaFormatException.corrupt(element.describe() + " comes before the Timecode of the Cluster at"
                    + " byte " + clusterOffset);
            }
            ByteBuffer head = source.peek(block.dataOffset(), (int) Math.min(BLOCK_HEAD_BYTES, block.size()));
            int first = head.remaining() > 0 ? head.get(0) & 0xFF : 0;
            int length = Integer.numberOfLeadingZeros(first) - 23;
            if (first == 0 || head.remaining() < length + 3) {
                throw MediaFormatException.corrupt(block.describe() + " is too short for a block header");
            }
            long number = first & (0xFF >> length);
            for (int i = 1; i < length; i++) {
                number = (number << 8) | (head.get(i) & 0xFF);
            }
            int flags = head.get(length + 2) & 0xFF;
            int laced = (flags >> 1) & 3;
            if (laced != 0 && head.remaining() < length + 4) {
                throw MediaFormatException.corrupt(block.describe() + " is laced but too short for its lace count");
            }
            simple = isSimple;
            elementOffset = element.offset();
            elementEnd = element.end();
            track = number;
            timecodeOffset = block.dataOffset() + length;
            timecode = clusterTimecode + head.getShort(length);
            frameOffset = timecodeOffset + 3;
            frameEnd = block.end();
            keyframe = isSimple ? (flags & 0x80) != 0 : groupKeyframe;
            lacing = laced;
            frames = laced == 0 ? 1 : (head.get(length + 3) & 0xFF) + 1;
            durationTicks = duration;
        }

        private Header header(long at, long bound) throws IOException {
            ByteBuffer head = source.peek(at, (int) Math.min(Ebml.MAX_HEADER_BYTES, bound - at));
            return Ebml.header(head, at, bound, bound >= fileSize ? null : parent(bound));
        }

        private String parent(long bound) {
            return bound == clusterEnd ? "the Cluster at byte " + clusterOffset : "the element ending at byte " + bound;
        }

        private long end(Header h, long bound) throws MediaFormatException {
            if (h.unknownSize()) {
                throw MediaFormatException.corrupt(h.describe() + " has an unknown size, which only a Segment or a"
                    + " Cluster may have");
            }
            if (h.end() > bound) {
                if (bound >= fileSize) {
                    throw MediaFormatException.truncated(h.name(), h.offset(), h.size(), fileSize);
                }
                throw MediaFormatException.corrupt(h.describe() + " claims " + h.size() + " bytes, past the end of "
                    + parent(bound) + " at byte " + bound);
            }
            return h.end();
        }

        /** {@code the SimpleBlock at byte 4130}. */
        String describe() {
            return "the " + (simple ? "SimpleBlock" : "BlockGroup") + " at byte " + elementOffset;
        }

        /** Where the SimpleBlock or BlockGroup element starts: the bytes a remuxer copies start here. */
        long elementOffset() {
            return elementOffset;
        }

        /** Where the SimpleBlock or BlockGroup element ends. */
        long elementEnd() {
            return elementEnd;
        }

        long track() {
            return track;
        }

        /** Where the block's 16-bit relative timecode lies in the file. */
        long timecodeOffset() {
            return timecodeOffset;
        }

        /** The block's absolute time in ticks: its Cluster's Timecode plus its relative timecode. */
        long timecode() {
            return timecode;
        }

        /** Where the frame data starts, just past the block header (the lace header, if laced, first). */
        long frameOffset() {
            return frameOffset;
        }

        /** Where the frame data ends: the end of the SimpleBlock or Block. */
        long frameEnd() {
            return frameEnd;
        }

        /** A SimpleBlock with its keyframe flag, or a BlockGroup without ReferenceBlock. */
        boolean keyframe() {
            return keyframe;
        }

        /** 0 none, 1 Xiph, 2 fixed-size, 3 EBML lacing. */
        int lacing() {
            return lacing;
        }

        /** How many frames the block holds: 1, or the lace count. */
        int frames() {
            return frames;
        }

        /**
         * Where each of the block's frames lies: fills {@code offsets} and {@code sizes} (each at least
         * {@link #frames} long) from the lace header (RFC 9559 Section 10.3: Xiph, fixed-size or EBML
         * lacing), or with the one frame of an unlaced block.
         *
         * @throws MediaFormatException if the lace header is corrupt or its sizes overrun the block
         */
        void frames(long[] offsets, int[] sizes) throws IOException {
            long dataEnd = frameEnd;
            if (lacing == 0) {
                offsets[0] = frameOffset;
                sizes[0] = checkedSize(dataEnd - frameOffset);
                return;
            }
            long headerStart = frameOffset + 1;
            ByteBuffer head = source.peek(headerStart, (int) Math.min(dataEnd - headerStart, MAX_LACE_HEADER_BYTES));
            int at = 0;
            long sum = 0;
            long[] laced = new long[frames];
            if (lacing == 2) {
                long each = (dataEnd - headerStart) / frames;
                if (each * frames != dataEnd - headerStart) {
                    throw MediaFormatException.corrupt(describe() + " laces " + frames + " frames of equal size into "
                        + (dataEnd - headerStart) + " bytes, which they do not divide");
                }
                Arrays.fill(laced, each);
            } else {
                for (int i = 0; i < frames - 1; i++) {
                    long size;
                    if (lacing == 1) {
                        size = 0;
                        int b;
                        do {
                            b = laceByte(head, at++);
                            size += b;
                        } while (b == 0xFF);
                    } else {
                        int first = laceByte(head, at);
                        int length = Integer.numberOfLeadingZeros(first) - 23;
                        if (first == 0) {
                            throw MediaFormatException.corrupt(describe() + " has a lace size that is no EBML number");
                        }
                        long v = first & (0xFF >> length);
                        for (int j = 1; j < length; j++) {
                            v = (v << 8) | laceByte(head, at + j);
                        }
                        at += length;
                        size = i == 0 ? v : laced[i - 1] + v - ((1L << (7 * length - 1)) - 1);
                    }
                    if (size < 0) {
                        throw MediaFormatException.corrupt(describe() + " laces a frame of " + size + " bytes");
                    }
                    laced[i] = size;
                    sum += size;
                }
                laced[frames - 1] = dataEnd - headerStart - at - sum;
            }
            long pos = headerStart + at;
            for (int i = 0; i < frames; i++) {
                if (laced[i] < 0 || pos + laced[i] > dataEnd) {
                    throw MediaFormatException.corrupt(describe() + " laces frames past the end of its block at byte "
                        + dataEnd);
                }
                offsets[i] = pos;
                sizes[i] = checkedSize(laced[i]);
                pos += laced[i];
            }
        }

        private int laceByte(ByteBuffer head, int i) throws MediaFormatException {
            if (i >= head.remaining()) {
                throw MediaFormatException.corrupt(describe() + " has a lace header that runs past its block or past "
                    + MAX_LACE_HEADER_BYTES + " bytes");
            }
            return head.get(head.position() + i) & 0xFF;
        }

        private int checkedSize(long size) throws MediaFormatException {
            if (size > Integer.MAX_VALUE) {
                throw MediaFormatException.unsupported(describe() + " holds a frame of " + size + " bytes");
            }
            return (int) size;
        }

        /** The BlockGroup's BlockDuration in ticks, or -1 when not given. */
        long durationTicks() {
            return durationTicks;
        }

        long clusterOffset() {
            return clusterOffset;
        }

        /** The end of the current Cluster, or {@link #UNKNOWN_END} for one of unknown size. */
        long clusterEnd() {
            return clusterEnd;
        }

        long clusterTimecode() {
            return clusterTimecode;
        }
    }
}

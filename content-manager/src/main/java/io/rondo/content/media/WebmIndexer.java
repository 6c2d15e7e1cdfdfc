package io.rondo.content.media;

import io.rondo.content.media.Ebml.Header;
import io.rondo.content.media.Fragmenter.Cut;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Indexes WebM and Matroska by walking the Segment's elements: Info (TimecodeScale, Duration), Tracks
 * (codecs), and every Cluster's offset and Timecode. It reads headers only: a Cluster of known size
 * costs one read of its header and Timecode and is then skipped by its size; a Cluster of unknown
 * size (live muxers, MediaRecorder) is walked block header by block header until the next top-level
 * element. Cues are not needed, since every Cluster is visited. The init segment is everything before
 * the first Cluster; fragments group Clusters to about one round ({@link Fragmenter}).
 */
final class WebmIndexer {

    private static final long DEFAULT_TIMECODE_SCALE = 1_000_000;
    private static final int VIDEO = 1;
    private static final int AUDIO = 2;

    /** One TrackEntry: what the codecs string and the duration of a last block need. */
    private record Track(long number, long type, String codecId, ByteBuffer codecPrivate, long codecPrivateOffset,
                         long defaultDurationNs) { }

    /** A Cluster: where it is and its Timecode in TimecodeScale units. */
    private record ClusterAt(Header header, long timecode) { }

    /** What a walk over a Cluster's children found: its end, its Timecode, the end of its last block. */
    private record ClusterScan(long end, long timecode, long lastBlockEndNs) { }

    private final MediaFile in;
    private final long size;
    private long segmentEnd;
    private long timecodeScale = DEFAULT_TIMECODE_SCALE;
    private double durationTicks = Double.NaN;
    private Header durationHeader;
    private List<Track> tracks;

    private WebmIndexer(MediaFile in) {
        this.in = in;
        this.size = in.size();
    }

    /**
     * The index of the WebM or Matroska file {@code in}, which starts with the EBML magic; empty if
     * the EBML document is of another type than {@code webm} or {@code matroska}.
     */
    static Optional<MediaIndex> index(MediaFile in, long roundNs) throws IOException {
        return new WebmIndexer(in).index(roundNs);
    }

    private Optional<MediaIndex> index(long roundNs) throws IOException {
        Header ebml = Ebml.header(in, 0);
        String[] docType = {"matroska"};
        Ebml.children(readBody(ebml), ebml.dataOffset(), ebml, (h, data) -> {
            if (h.id() == Ebml.DOC_TYPE) {
                docType[0] = Ebml.string(data);
            }
        });
        if (!docType[0].equals("webm") && !docType[0].equals("matroska")) {
            return Optional.empty();
        }
        Header segment = findSegment(ebml.end());
        segmentEnd = segment.unknownSize() ? size : segment.end();
        List<ClusterAt> clusters = walkSegment(segment);
        if (clusters.isEmpty()) {
            throw MediaFormatException.corrupt("the Segment at byte " + segment.offset()
                + " holds no Cluster: there is no media to play");
        }

        List<Cut> cuts = new ArrayList<>(clusters.size());
        for (ClusterAt cluster : clusters) {
            cuts.add(new Cut(cluster.header().offset(), ticksToNs(cluster.timecode(), cluster.header())));
        }
        long durationNs = durationNs(clusters.get(clusters.size() - 1), cuts.get(cuts.size() - 1).startNs());
        long initEnd = clusters.get(0).header().offset();
        boolean video = tracks.stream().anyMatch(t -> t.type() == VIDEO);
        return Optional.of(new MediaIndex("webm", video ? "video/webm" : "audio/webm", codecs(), durationNs,
            new ByteRange(0, initEnd), Fragmenter.group(cuts, durationNs, size, roundNs, "Cluster")));
    }

    private Header findSegment(long pos) throws IOException {
        while (true) {
            if (pos >= size) {
                throw MediaFormatException.truncated("the file ends at byte " + size
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
            pos = checkedEnd(h);
        }
    }

    /** The Segment's children: Info and Tracks are read, every Cluster scanned, the rest skipped. */
    private List<ClusterAt> walkSegment(Header segment) throws IOException {
        List<ClusterAt> clusters = new ArrayList<>();
        long pos = segment.dataOffset();
        while (pos < segmentEnd) {
            if (pos >= size) {
                throw MediaFormatException.truncated("Segment", segment.offset(), segment.size(), size);
            }
            Header h = Ebml.header(in, pos);
            if (h.id() == Ebml.EBML || h.id() == Ebml.SEGMENT) {
                break;
            }
            if (h.id() == Ebml.CLUSTER) {
                if (tracks == null) {
                    throw MediaFormatException.corrupt(h.describe() + " comes before any Tracks:"
                        + " the codecs are not known");
                }
                ClusterScan scan = scanCluster(h, false);
                clusters.add(new ClusterAt(h, scan.timecode()));
                pos = scan.end();
                continue;
            }
            long end = h.unknownSize() ? endOfUnknownSize(h) : checkedEnd(h);
            if (clusters.isEmpty() && h.id() == Ebml.INFO) {
                readInfo(h);
            } else if (clusters.isEmpty() && h.id() == Ebml.TRACKS) {
                tracks = readTracks(h);
            }
            pos = end;
        }
        return clusters;
    }

    private void readInfo(Header info) throws IOException {
        Ebml.children(readBody(info), info.dataOffset(), info, (h, data) -> {
            if (h.id() == Ebml.TIMECODE_SCALE) {
                timecodeScale = Ebml.uint(data, h);
                if (timecodeScale == 0) {
                    throw MediaFormatException.corrupt(h.describe() + " is 0; a timecode scale must be positive");
                }
            } else if (h.id() == Ebml.DURATION) {
                durationTicks = Ebml.floatValue(data, h);
                durationHeader = h;
            }
        });
    }

    private List<Track> readTracks(Header tracksHeader) throws IOException {
        List<Track> found = new ArrayList<>();
        Ebml.children(readBody(tracksHeader), tracksHeader.dataOffset(), tracksHeader, (entry, entryData) -> {
            if (entry.id() == Ebml.TRACK_ENTRY) {
                found.add(readTrackEntry(entry, entryData));
            }
        });
        if (found.stream().noneMatch(t -> t.type() == VIDEO || t.type() == AUDIO)) {
            throw MediaFormatException.unsupported(tracksHeader.describe() + " holds no audio or video track");
        }
        return found;
    }

    private static Track readTrackEntry(Header entry, ByteBuffer entryData) throws MediaFormatException {
        long[] number = {0};
        long[] type = {0};
        long[] defaultDurationNs = {0};
        String[] codecId = {""};
        ByteBuffer[] codecPrivate = {null};
        long[] codecPrivateOffset = {0};
        Ebml.children(entryData, entry.dataOffset(), entry, (h, data) -> {
            if (h.id() == Ebml.TRACK_NUMBER) {
                number[0] = Ebml.uint(data, h);
            } else if (h.id() == Ebml.TRACK_TYPE) {
                type[0] = Ebml.uint(data, h);
            } else if (h.id() == Ebml.DEFAULT_DURATION) {
                defaultDurationNs[0] = Ebml.uint(data, h);
            } else if (h.id() == Ebml.CODEC_ID) {
                codecId[0] = Ebml.string(data);
            } else if (h.id() == Ebml.CODEC_PRIVATE) {
                codecPrivate[0] = data;
                codecPrivateOffset[0] = h.dataOffset();
            }
        });
        long kind = type[0];
        if (kind == 0) {
            kind = codecId[0].startsWith("V_") ? VIDEO : codecId[0].startsWith("A_") ? AUDIO : 0;
        }
        return new Track(number[0], kind, codecId[0], codecPrivate[0], codecPrivateOffset[0], defaultDurationNs[0]);
    }

    /** {@code vp8, vorbis}: the codecs of the video and audio tracks, in track order. */
    private String codecs() throws MediaFormatException {
        StringJoiner codecs = new StringJoiner(", ");
        for (Track t : tracks) {
            if (t.type() == VIDEO || t.type() == AUDIO) {
                codecs.add(codec(t));
            }
        }
        return codecs.toString();
    }

    private static String codec(Track t) throws MediaFormatException {
        String what = "the CodecPrivate of track " + t.number() + " at byte " + t.codecPrivateOffset();
        FieldCursor privateData = t.codecPrivate() == null ? null
            : new FieldCursor(t.codecPrivate(), t.codecPrivateOffset(), what);
        String id = t.codecId();
        switch (id) {
            case "V_VP8":
                return "vp8";
            case "V_VP9":
                return "vp9";
            case "V_AV1":
                return privateData == null ? "av01" : CodecStrings.av1(privateData);
            case "A_VORBIS":
                return "vorbis";
            case "A_OPUS":
                return "opus";
            case "A_FLAC":
                return "flac";
            case "V_MPEG4/ISO/AVC":
                if (privateData == null) {
                    throw MediaFormatException.corrupt("H.264 track " + t.number() + " has no CodecPrivate");
                }
                return CodecStrings.avc("avc1", privateData);
            case "V_MPEGH/ISO/HEVC":
                return privateData == null ? "hvc1" : CodecStrings.hevc("hvc1", privateData);
            default:
                if (id.startsWith("A_AAC")) {
                    return CodecStrings.aacFromCodecPrivate(t.codecPrivate(), t.codecPrivateOffset(), what);
                }
                throw MediaFormatException.unsupported("track " + t.number() + " has codec " + id
                    + "; Rondo streams VP8, VP9, AV1, H.264, HEVC, Vorbis, Opus, AAC and FLAC");
        }
    }

    /**
     * Walks a Cluster's children. Of a known size: until its Timecode (or to its end, for {@code
     * blocks}). Of unknown size: to the next top-level element or the end of the Segment.
     */
    private ClusterScan scanCluster(Header cluster, boolean blocks) throws IOException {
        boolean unknown = cluster.unknownSize();
        long limit = unknown ? Math.min(segmentEnd, size) : checkedEnd(cluster);
        long timecode = -1;
        long lastBlockEndNs = -1;
        long q = cluster.dataOffset();
        while (q < limit) {
            Header c = childHeader(q, limit, cluster);
            if (unknown && Ebml.isTopLevel(c.id())) {
                break;
            }
            long end = checkedChildEnd(c, limit, cluster);
            if (c.id() == Ebml.TIMECODE && timecode < 0) {
                timecode = Ebml.uint(smallData(c), c);
                if (!blocks && !unknown) {
                    break;
                }
            } else if (blocks && (c.id() == Ebml.SIMPLE_BLOCK || c.id() == Ebml.BLOCK_GROUP)) {
                if (timecode < 0) {
                    throw MediaFormatException.corrupt(c.describe() + " comes before the Timecode of "
                        + cluster.describe());
                }
                lastBlockEndNs = Math.max(lastBlockEndNs, blockEndNs(c, timecode));
            }
            q = end;
        }
        if (timecode < 0) {
            throw MediaFormatException.corrupt(cluster.describe() + " has no Timecode");
        }
        return new ClusterScan(unknown ? q : cluster.end(), timecode, lastBlockEndNs);
    }

    /** When a SimpleBlock or BlockGroup stops playing: its time plus its BlockDuration or DefaultDuration. */
    private long blockEndNs(Header block, long clusterTimecode) throws IOException {
        Header timed = block;
        long durationNs = -1;
        if (block.id() == Ebml.BLOCK_GROUP) {
            timed = null;
            long q = block.dataOffset();
            while (q < block.end()) {
                Header c = childHeader(q, block.end(), block);
                long end = checkedChildEnd(c, block.end(), block);
                if (c.id() == Ebml.BLOCK) {
                    timed = c;
                } else if (c.id() == Ebml.BLOCK_DURATION) {
                    durationNs = ticksToNs(Ebml.uint(smallData(c), c), c);
                }
                q = end;
            }
            if (timed == null) {
                return -1;
            }
        }
        ByteBuffer head = in.peek(timed.dataOffset(), (int) Math.min(Ebml.MAX_HEADER_BYTES, timed.size()));
        int first = head.remaining() > 0 ? head.get(0) & 0xFF : 0;
        int length = Integer.numberOfLeadingZeros(first) - 23;
        if (first == 0 || head.remaining() < length + 2) {
            throw MediaFormatException.corrupt(timed.describe() + " is too short for a block header");
        }
        long trackNumber = first & (0xFF >> length);
        for (int i = 1; i < length; i++) {
            trackNumber = (trackNumber << 8) | (head.get(i) & 0xFF);
        }
        long relative = head.getShort(length);
        if (durationNs < 0) {
            durationNs = 0;
            for (Track t : tracks) {
                if (t.number() == trackNumber) {
                    durationNs = t.defaultDurationNs();
                }
            }
        }
        long startNs = ticksToNs(Math.max(0, clusterTimecode + relative), timed);
        return startNs + durationNs;
    }

    /**
     * The media's duration: Info's Duration, or else (none, zero as live muxers write, or before the
     * last Cluster) the end of the last block of the last Cluster.
     */
    private long durationNs(ClusterAt last, long lastStartNs) throws IOException {
        if (!Double.isNaN(durationTicks)) {
            double ns = durationTicks * timecodeScale;
            if (!(ns >= 0) || ns > Long.MAX_VALUE / 2.0) {
                throw MediaFormatException.corrupt(durationHeader.describe() + " is " + durationTicks
                    + ", which is no duration");
            }
            if (ns > 0 && Math.round(ns) >= lastStartNs) {
                return Math.round(ns);
            }
        }
        return Math.max(lastStartNs, scanCluster(last.header(), true).lastBlockEndNs());
    }

    /** The end of an element of unknown size other than a Cluster: the next top-level element. */
    private long endOfUnknownSize(Header h) throws IOException {
        long limit = Math.min(segmentEnd, size);
        long q = h.dataOffset();
        while (q < limit) {
            Header c = childHeader(q, limit, h);
            if (Ebml.isTopLevel(c.id())) {
                break;
            }
            q = checkedChildEnd(c, limit, h);
        }
        return q;
    }

    private Header childHeader(long pos, long limit, Header parent) throws IOException {
        ByteBuffer head = in.peek(pos, (int) Math.min(Ebml.MAX_HEADER_BYTES, limit - pos));
        return Ebml.header(head, pos, limit, limit >= size ? null : parent.describe());
    }

    private long checkedChildEnd(Header c, long limit, Header parent) throws MediaFormatException {
        if (c.unknownSize()) {
            throw MediaFormatException.corrupt(c.describe() + " inside " + parent.describe()
                + " has an unknown size, which only a Segment or a Cluster may have");
        }
        if (c.end() > limit) {
            if (limit >= size) {
                throw MediaFormatException.truncated(c.describe() + " (in " + parent.describe() + ") claims "
                    + c.size() + " bytes but the file ends at " + size);
            }
            throw MediaFormatException.corrupt(c.describe() + " claims " + c.size() + " bytes, past the end of "
                + parent.describe() + " at byte " + limit);
        }
        return c.end();
    }

    private long checkedEnd(Header h) throws MediaFormatException {
        if (h.unknownSize()) {
            throw MediaFormatException.corrupt(h.describe() + " has an unknown size, which only a Segment or a"
                + " Cluster may have");
        }
        if (h.end() > size) {
            throw MediaFormatException.truncated(h.name(), h.offset(), h.size(), size);
        }
        return h.end();
    }

    private ByteBuffer readBody(Header h) throws IOException {
        long end = checkedEnd(h);
        if (h.size() > MediaFile.MAX_BODY_BYTES) {
            throw MediaFormatException.unsupported(h.describe() + " is " + h.size() + " bytes, more than the "
                + MediaFile.MAX_BODY_BYTES + " an indexer reads");
        }
        return in.read(h.dataOffset(), (int) (end - h.dataOffset()));
    }

    /** The data of an integer element (at most 8 bytes, else it is corrupt). */
    private ByteBuffer smallData(Header h) throws IOException {
        if (h.size() > 8) {
            throw MediaFormatException.corrupt(h.describe() + " is an integer of " + h.size()
                + " bytes; at most 8 are allowed");
        }
        return in.peek(h.dataOffset(), (int) h.size());
    }

    private long ticksToNs(long ticks, Header where) throws MediaFormatException {
        try {
            return Math.multiplyExact(ticks, timecodeScale);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(where.describe() + " holds a time of " + ticks + " x "
                + timecodeScale + " ns, too large to be real");
        }
    }
}

package io.rondo.content.media;

import io.rondo.content.media.Fragmenter.Cut;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Indexes fragmented MP4 (ISO/IEC 14496-12) by walking the top-level boxes: the moov for the tracks'
 * timescales and codecs, every moof for its decode time (tfdt) and sample durations (trun), and over
 * every mdat by its size. A moov without mvex, or one whose tracks hold samples, is a progressive MP4:
 * no index, the caller serves it as a discrete object.
 *
 * <p>The init segment runs from byte 0 to the end of the moov. A fragment starts where the previous
 * one's last mdat ends, so boxes between fragments (styp, sidx, prft, emsg) go with the moof they
 * precede, boxes between the moov and the first moof with the first fragment, and boxes after the
 * last mdat (mfra) with the last fragment. A moof's time is the tfdt of its first video track, else
 * its first audio track; a moof without that track is not a cut point and joins the fragment before.
 */
final class Mp4Indexer {

    private static final Set<String> FIRST_BOXES =
        Set.of("ftyp", "styp", "moov", "moof", "mdat", "free", "skip", "wide", "pdin", "sidx");
    private static final Set<String> VISUAL_ENTRIES = Set.of("avc1", "avc3", "hvc1", "hev1", "vp09", "av01", "encv");

    /** A box: its type, where it is, how long its header is, and its whole size. */
    record Box(String type, long offset, int headerLength, long size) {

        long dataOffset() {
            return offset + headerLength;
        }

        long end() {
            return offset + size;
        }

        /** {@code the moof at byte 1276}. */
        String describe() {
            return "the " + type + " at byte " + offset;
        }
    }

    /** What a visitor of {@link #boxes} is given: one box and a cursor over its data. */
    @FunctionalInterface
    private interface BoxVisitor {
        void visit(Box box, FieldCursor data) throws MediaFormatException;
    }

    /** A trak of the moov and, while moofs are read, the decode time its next fragment starts at. */
    private static final class Track {
        private long id;
        private String handler = "";
        private long timescale;
        private String codec;
        private long sampleCount;
        private long defaultDuration;
        private long nextDecodeTime;
        private String where = "";

        boolean playable() {
            return handler.equals("vide") || handler.equals("soun");
        }
    }

    private final MediaFile in;
    private final long size;
    private final List<Track> tracks = new ArrayList<>();
    private final Map<Long, Long> trexDurations = new HashMap<>();
    private long movieTimescale;
    private long movieDuration;
    private long fragmentDuration;
    private Track primary;

    private Mp4Indexer(MediaFile in) {
        this.in = in;
        this.size = in.size();
    }

    /** Whether {@code head} starts like an ISO BMFF file: a known first box with a plausible size. */
    static boolean sniff(ByteBuffer head) {
        if (head.remaining() < 8) {
            return false;
        }
        long boxSize = head.getInt(head.position()) & 0xFFFF_FFFFL;
        return FIRST_BOXES.contains(fourcc(head, head.position() + 4)) && (boxSize <= 1 || boxSize >= 8);
    }

    /** The index of the ISO BMFF file {@code in}; empty if it is not fragmented. */
    static Optional<MediaIndex> index(MediaFile in, long roundNs) throws IOException {
        return new Mp4Indexer(in).index(roundNs);
    }

    private Optional<MediaIndex> index(long roundNs) throws IOException {
        Box moov = null;
        boolean fragmented = false;
        List<Cut> cuts = new ArrayList<>();
        long afterMdat = -1;
        long pos = 0;
        while (pos < size) {
            Box box = topBox(pos);
            if (box.type().equals("moov")) {
                if (moov != null) {
                    throw MediaFormatException.corrupt(box.describe() + " is a second moov; the first is at byte "
                        + moov.offset());
                }
                moov = box;
                fragmented = hasMvex(box) && readMoov(box);
            } else if (box.type().equals("moof")) {
                if (moov == null) {
                    throw MediaFormatException.unsupported(box.describe() + " comes before any moov: this is a"
                        + " media segment without its initialization segment");
                }
                if (fragmented) {
                    long unitStart = cuts.isEmpty() ? moov.end() : afterMdat >= 0 ? afterMdat : box.offset();
                    long startNs = readMoof(box, cuts.isEmpty());
                    if (startNs >= 0) {
                        cuts.add(new Cut(unitStart, startNs));
                    }
                    afterMdat = -1;
                }
            } else if (box.type().equals("mdat")) {
                afterMdat = box.end();
            }
            pos = box.end();
        }
        if (moov == null) {
            throw MediaFormatException.corrupt("the file has ISO BMFF boxes but no moov: it cannot be played");
        }
        if (!fragmented) {
            return Optional.empty();
        }
        if (cuts.isEmpty()) {
            throw MediaFormatException.corrupt("the fragmented MP4 has no moof with samples of track "
                + primary.id + ": there is no media to play");
        }
        long lastStartNs = cuts.get(cuts.size() - 1).startNs();
        long endNs = declaredDurationNs();
        if (endNs < lastStartNs) {
            endNs = Math.max(lastStartNs, Fragmenter.ticksToNs(primary.nextDecodeTime, primary.timescale,
                primary.where));
        }
        boolean video = tracks.stream().anyMatch(t -> t.handler.equals("vide"));
        StringJoiner codecs = new StringJoiner(", ");
        tracks.stream().filter(Track::playable).forEach(t -> codecs.add(t.codec));
        return Optional.of(new MediaIndex("mp4", video ? "video/mp4" : "audio/mp4", codecs.toString(), endNs,
            new ByteRange(0, moov.end()), Fragmenter.group(cuts, endNs, size, roundNs, "moof")));
    }

    /** The duration the moov declares (mehd, else mvhd), in ns, or -1. */
    private long declaredDurationNs() throws MediaFormatException {
        long ticks = fragmentDuration > 0 ? fragmentDuration : movieDuration;
        return ticks > 0 ? Fragmenter.ticksToNs(ticks, movieTimescale, "the mvhd") : -1;
    }

    private Box topBox(long pos) throws IOException {
        ByteBuffer head = in.peek(pos, 16);
        if (head.remaining() < 8) {
            throw MediaFormatException.truncated("the file ends at byte " + size + " inside the header of the box at"
                + " byte " + pos);
        }
        long boxSize = head.getInt(0) & 0xFFFF_FFFFL;
        String type = fourcc(head, 4);
        int headerLength = 8;
        if (boxSize == 1) {
            if (head.remaining() < 16) {
                throw MediaFormatException.truncated("the file ends at byte " + size + " inside the header of the "
                    + type + " at byte " + pos);
            }
            boxSize = head.getLong(8);
            headerLength = 16;
        } else if (boxSize == 0) {
            boxSize = size - pos;
        }
        if (type.equals("uuid")) {
            headerLength += 16;
        }
        Box box = new Box(type, pos, headerLength, boxSize);
        if (boxSize < headerLength) {
            throw MediaFormatException.corrupt(box.describe() + " claims a size of " + Long.toUnsignedString(boxSize)
                + " bytes, less than its own header");
        }
        if (boxSize > size - pos) {
            throw MediaFormatException.truncated(type, pos, boxSize, size);
        }
        return box;
    }

    /** Whether the moov holds an mvex, read from its children's headers (a progressive moov can be large). */
    private boolean hasMvex(Box moov) throws IOException {
        long q = moov.dataOffset();
        while (q + 8 <= moov.end()) {
            ByteBuffer head = in.peek(q, 16);
            long childSize = head.getInt(0) & 0xFFFF_FFFFL;
            if (fourcc(head, 4).equals("mvex")) {
                return true;
            }
            if (childSize == 1 && head.remaining() >= 16) {
                childSize = head.getLong(8);
            } else if (childSize == 0) {
                childSize = moov.end() - q;
            }
            if (childSize < 8 || childSize > moov.end() - q) {
                throw MediaFormatException.corrupt("the box at byte " + q + " claims " + childSize
                    + " bytes, which does not fit " + moov.describe());
            }
            q += childSize;
        }
        return false;
    }

    /** Reads the tracks of a moov with mvex; false if they hold samples (a progressive file after all). */
    private boolean readMoov(Box moov) throws IOException {
        boxes(read(moov), moov.dataOffset(), moov.describe(), (box, data) -> {
            switch (box.type()) {
                case "mvhd" -> {
                    int version = data.u8();
                    data.skip(version == 1 ? 19 : 11);
                    movieTimescale = data.u32();
                    movieDuration = version == 1 ? data.u64() : unknownAsZero(data.u32());
                }
                case "trak" -> readTrak(box, data);
                case "mvex" -> readMvex(box, data);
                default -> skip(data);
            }
        });
        for (Track t : tracks) {
            t.defaultDuration = trexDurations.getOrDefault(t.id, 0L);
        }
        for (Track t : tracks) {
            if (primary == null && t.handler.equals("vide")) {
                primary = t;
            }
        }
        for (Track t : tracks) {
            if (primary == null && t.handler.equals("soun")) {
                primary = t;
            }
        }
        if (primary == null) {
            throw MediaFormatException.unsupported(moov.describe() + " holds no audio or video track");
        }
        return tracks.stream().noneMatch(t -> t.sampleCount > 0);
    }

    private void readMvex(Box mvex, FieldCursor data) throws MediaFormatException {
        children(data, mvex.describe(), (box, d) -> {
            if (box.type().equals("mehd")) {
                int version = d.u8();
                d.skip(3);
                fragmentDuration = version == 1 ? d.u64() : unknownAsZero(d.u32());
            } else if (box.type().equals("trex")) {
                d.skip(4);
                long trackId = d.u32();
                d.skip(4);
                trexDurations.put(trackId, d.u32());
            }
        });
    }

    private void readTrak(Box trak, FieldCursor data) throws MediaFormatException {
        Track track = new Track();
        track.where = trak.describe();
        children(data, trak.describe(), (box, d) -> {
            if (box.type().equals("tkhd")) {
                int version = d.u8();
                d.skip(version == 1 ? 19 : 11);
                track.id = d.u32();
            } else if (box.type().equals("mdia")) {
                readMdia(box, d, track);
            }
        });
        if (track.playable()) {
            if (track.timescale == 0) {
                throw MediaFormatException.corrupt(trak.describe() + " has no mdhd timescale");
            }
            if (track.codec == null) {
                throw MediaFormatException.corrupt(trak.describe() + " has no sample description (stsd)");
            }
        }
        tracks.add(track);
    }

    private void readMdia(Box mdia, FieldCursor data, Track track) throws MediaFormatException {
        children(data, mdia.describe(), (box, d) -> {
            switch (box.type()) {
                case "mdhd" -> {
                    int version = d.u8();
                    d.skip(version == 1 ? 19 : 11);
                    track.timescale = d.u32();
                }
                case "hdlr" -> {
                    d.skip(8);
                    track.handler = fourcc(d.take(4), 0);
                }
                case "minf", "stbl" -> readMdia(box, d, track);
                case "stsd" -> {
                    d.skip(8);
                    children(d, box.describe(), (entry, e) -> {
                        if (track.codec == null) {
                            track.codec = codec(entry, e, track);
                        }
                    });
                }
                case "stsz" -> {
                    d.skip(8);
                    track.sampleCount = d.u32();
                }
                case "stz2" -> {
                    d.skip(8);
                    track.sampleCount = d.u32();
                }
                default -> skip(d);
            }
        });
    }

    /** The codecs-parameter entry of a sample entry (stsd child), from its decoder configuration box. */
    private String codec(Box entry, FieldCursor data, Track track) throws MediaFormatException {
        String type = entry.type();
        if (!track.playable()) {
            return type;
        }
        if (type.equals("encv") || type.equals("enca")) {
            throw MediaFormatException.unsupported("track " + track.id + " is encrypted (" + type + " at byte "
                + entry.offset() + "); Rondo streams clear media only");
        }
        if (VISUAL_ENTRIES.contains(type)) {
            data.skip(78);
        } else {
            data.skip(8);
            int version = data.u16();
            data.skip(18 + (version == 1 ? 16 : version == 2 ? 36 : 0));
        }
        FieldCursor[] config = {null};
        String configType = switch (type) {
            case "avc1", "avc3" -> "avcC";
            case "hvc1", "hev1" -> "hvcC";
            case "vp09" -> "vpcC";
            case "av01" -> "av1C";
            case "mp4a" -> "esds";
            default -> "";
        };
        children(data, entry.describe(), (box, d) -> {
            if (box.type().equals(configType) && config[0] == null) {
                config[0] = d;
            }
        });
        FieldCursor c = config[0];
        switch (type) {
            case "avc1", "avc3":
                if (c == null) {
                    throw MediaFormatException.corrupt(entry.describe() + " has no avcC");
                }
                return CodecStrings.avc(type, c);
            case "hvc1", "hev1":
                return c == null ? type : CodecStrings.hevc(type, c);
            case "vp09":
                return c == null ? type : CodecStrings.vp9(c);
            case "av01":
                return c == null ? type : CodecStrings.av1(c);
            case "mp4a":
                if (c == null) {
                    throw MediaFormatException.corrupt(entry.describe() + " has no esds");
                }
                c.skip(4);
                return CodecStrings.mp4a(c);
            case "Opus":
                return "opus";
            case "fLaC":
                return "flac";
            case "ac-3", "ec-3":
                return type;
            default:
                throw MediaFormatException.unsupported("track " + track.id + " has sample entry '" + type + "' at byte "
                    + entry.offset() + "; Rondo streams H.264, HEVC, VP9, AV1, AAC, Opus, FLAC, AC-3 and E-AC-3");
        }
    }

    /**
     * Reads a moof: every traf's decode time and sample durations. Returns the time of the primary
     * track's traf in ns, or -1 when the moof has none (for the first moof: any track's time instead).
     */
    private long readMoof(Box moof, boolean first) throws IOException {
        long[] startNs = {-1, -1};
        boxes(read(moof), moof.dataOffset(), moof.describe(), (box, data) -> {
            if (box.type().equals("traf")) {
                long[] trackAndStart = readTraf(box, data);
                if (trackAndStart[0] == primary.id) {
                    startNs[0] = trackAndStart[1];
                } else if (startNs[1] < 0) {
                    startNs[1] = trackAndStart[1];
                }
            }
        });
        return startNs[0] >= 0 || !first ? startNs[0] : startNs[1];
    }

    /** The track of a traf and its start in ns (-1 for a track the moov does not declare). */
    private long[] readTraf(Box traf, FieldCursor data) throws MediaFormatException {
        long[] trackId = {-1};
        long[] defaultDuration = {-1};
        long[] decodeTime = {-1};
        long[] duration = {0};
        Track[] track = {null};
        children(data, traf.describe(), (box, d) -> {
            switch (box.type()) {
                case "tfhd" -> {
                    d.skip(1);
                    int flags = (d.u8() << 16) | d.u16();
                    trackId[0] = d.u32();
                    d.skip(((flags & 0x01) != 0 ? 8 : 0) + ((flags & 0x02) != 0 ? 4 : 0));
                    if ((flags & 0x08) != 0) {
                        defaultDuration[0] = d.u32();
                    }
                    for (Track t : tracks) {
                        if (t.id == trackId[0]) {
                            track[0] = t;
                        }
                    }
                }
                case "tfdt" -> {
                    int version = d.u8();
                    d.skip(3);
                    decodeTime[0] = version == 1 ? d.u64() : d.u32();
                }
                case "trun" -> {
                    long fallback = defaultDuration[0] >= 0 ? defaultDuration[0]
                        : track[0] != null ? track[0].defaultDuration : 0;
                    duration[0] = add(duration[0], trunDuration(box, d, fallback), box);
                }
                default -> skip(d);
            }
        });
        Track t = track[0];
        if (t == null) {
            return new long[] {trackId[0], -1};
        }
        long start = decodeTime[0] >= 0 ? decodeTime[0] : t.nextDecodeTime;
        t.nextDecodeTime = add(start, duration[0], traf);
        return new long[] {t.id, Fragmenter.ticksToNs(start, t.timescale, t.where)};
    }

    /** The sum of a trun's sample durations: per sample when present, else the default. */
    private static long trunDuration(Box trun, FieldCursor d, long defaultDuration) throws MediaFormatException {
        d.skip(1);
        int flags = (d.u8() << 16) | d.u16();
        long count = d.u32();
        d.skip(((flags & 0x001) != 0 ? 4 : 0) + ((flags & 0x004) != 0 ? 4 : 0));
        if ((flags & 0x100) == 0) {
            try {
                return Math.multiplyExact(count, defaultDuration);
            } catch (ArithmeticException e) {
                throw MediaFormatException.corrupt(trun.describe() + " claims " + count + " samples");
            }
        }
        int recordBytes = 4 * Integer.bitCount(flags & 0xF00);
        if (count * recordBytes > d.remaining()) {
            throw MediaFormatException.corrupt(trun.describe() + " claims " + count + " samples of " + recordBytes
                + " bytes but holds " + d.remaining() + " bytes");
        }
        long sum = 0;
        for (long i = 0; i < count; i++) {
            sum += d.u32();
            d.skip(recordBytes - 4);
        }
        return sum;
    }

    /**
     * Visits the boxes held in memory in {@code body} (index 0 at file offset {@code base}), each with
     * a cursor over its data. Sizes are checked against the parent.
     */
    private static void boxes(ByteBuffer body, long base, String parent, BoxVisitor visitor)
        throws MediaFormatException {
        int i = 0;
        int limit = body.limit();
        while (i < limit) {
            FieldCursor head = new FieldCursor(body.slice(i, limit - i), base + i, "the box header at byte "
                + (base + i) + " in " + parent);
            long boxSize = head.u32();
            String type = fourcc(head.take(4), 0);
            int headerLength = 8;
            if (boxSize == 1) {
                boxSize = head.u64();
                headerLength = 16;
            } else if (boxSize == 0) {
                boxSize = limit - i;
            }
            if (type.equals("uuid")) {
                headerLength += 16;
            }
            Box box = new Box(type, base + i, headerLength, boxSize);
            if (boxSize < headerLength || boxSize > limit - i) {
                throw MediaFormatException.corrupt(box.describe() + " claims " + boxSize + " bytes, which does not"
                    + " fit " + parent + " (it ends at byte " + (base + limit) + ")");
            }
            visitor.visit(box, new FieldCursor(body.slice(i + headerLength, (int) boxSize - headerLength),
                box.dataOffset(), box.describe()));
            i += (int) boxSize;
        }
    }

    private ByteBuffer read(Box box) throws IOException {
        long length = box.size() - box.headerLength();
        if (length > MediaFile.MAX_BODY_BYTES) {
            throw MediaFormatException.unsupported(box.describe() + " is " + box.size() + " bytes, more than the "
                + MediaFile.MAX_BODY_BYTES + " an indexer reads");
        }
        return in.read(box.dataOffset(), (int) length);
    }

    /** Visits the boxes in the rest of a cursor's bytes. */
    private static void children(FieldCursor data, String parent, BoxVisitor visitor) throws MediaFormatException {
        long at = data.offset();
        boxes(data.take(data.remaining()), at, parent, visitor);
    }

    private static void skip(FieldCursor data) throws MediaFormatException {
        data.skip(data.remaining());
    }

    private static long unknownAsZero(long u32) {
        return u32 == 0xFFFF_FFFFL ? 0 : u32;
    }

    private static long add(long a, long b, Box where) throws MediaFormatException {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(where.describe() + " holds times too large to be real");
        }
    }

    /** A box type: four printable characters, else its hex. */
    static String fourcc(ByteBuffer buf, int index) {
        byte[] b = new byte[4];
        buf.get(index, b);
        for (byte c : b) {
            if (c < 0x20 || c > 0x7E) {
                return String.format(Locale.ROOT, "box 0x%08X", buf.getInt(index));
            }
        }
        return new String(b, StandardCharsets.US_ASCII);
    }
}

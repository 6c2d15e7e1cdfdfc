package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * EBML, the binary format of WebM and Matroska: element IDs and sizes as variable-length integers
 * (VINT: the count of leading zero bits of the first byte gives the length), and the element IDs the
 * indexer reads. RFC 8794 (EBML) and RFC 9559 (Matroska).
 */
public final class Ebml {

    public static final int EBML = 0x1A45DFA3;
    public static final int EBML_VERSION = 0x4286;
    public static final int EBML_READ_VERSION = 0x42F7;
    public static final int EBML_MAX_ID_LENGTH = 0x42F2;
    public static final int EBML_MAX_SIZE_LENGTH = 0x42F3;
    public static final int DOC_TYPE = 0x4282;
    public static final int DOC_TYPE_VERSION = 0x4287;
    public static final int DOC_TYPE_READ_VERSION = 0x4285;
    public static final int SEGMENT = 0x18538067;
    static final int SEEK_HEAD = 0x114D9B74;
    public static final int INFO = 0x1549A966;
    public static final int TIMECODE_SCALE = 0x2AD7B1;
    public static final int DURATION = 0x4489;
    public static final int MUXING_APP = 0x4D80;
    public static final int WRITING_APP = 0x5741;
    public static final int TRACKS = 0x1654AE6B;
    public static final int TRACK_ENTRY = 0xAE;
    public static final int TRACK_NUMBER = 0xD7;
    public static final int TRACK_TYPE = 0x83;
    public static final int CODEC_ID = 0x86;
    public static final int CODEC_PRIVATE = 0x63A2;
    static final int DEFAULT_DURATION = 0x23E383;
    public static final int CODEC_DELAY = 0x56AA;
    static final int VIDEO = 0xE0;
    static final int PIXEL_WIDTH = 0xB0;
    static final int PIXEL_HEIGHT = 0xBA;
    public static final int AUDIO = 0xE1;
    public static final int SAMPLING_FREQUENCY = 0xB5;
    public static final int CHANNELS = 0x9F;
    static final int CONTENT_ENCODINGS = 0x6D80;
    static final int CONTENT_ENCODING = 0x6240;
    static final int CONTENT_COMPRESSION = 0x5034;
    public static final int CLUSTER = 0x1F43B675;
    public static final int TIMECODE = 0xE7;
    public static final int SIMPLE_BLOCK = 0xA3;
    static final int BLOCK_GROUP = 0xA0;
    static final int BLOCK = 0xA1;
    static final int BLOCK_DURATION = 0x9B;
    static final int REFERENCE_BLOCK = 0xFB;
    static final int CUES = 0x1C53BB6B;
    static final int TAGS = 0x1254C367;
    static final int CHAPTERS = 0x1043A770;
    static final int ATTACHMENTS = 0x1941A469;
    static final int VOID = 0xEC;
    static final int CRC_32 = 0xBF;

    /** The size of an element whose size is not known ("unknown size", all VINT data bits set). */
    static final long UNKNOWN_SIZE = -1;

    /** The longest header: a 4-byte ID and an 8-byte size. */
    static final int MAX_HEADER_BYTES = 12;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
        Map.entry(EBML, "EBML header"), Map.entry(DOC_TYPE, "DocType"), Map.entry(SEGMENT, "Segment"),
        Map.entry(SEEK_HEAD, "SeekHead"), Map.entry(INFO, "Info"), Map.entry(TIMECODE_SCALE, "TimecodeScale"),
        Map.entry(DURATION, "Duration"), Map.entry(TRACKS, "Tracks"), Map.entry(TRACK_ENTRY, "TrackEntry"),
        Map.entry(TRACK_NUMBER, "TrackNumber"), Map.entry(TRACK_TYPE, "TrackType"), Map.entry(CODEC_ID, "CodecID"),
        Map.entry(CODEC_PRIVATE, "CodecPrivate"), Map.entry(DEFAULT_DURATION, "DefaultDuration"),
        Map.entry(CLUSTER, "Cluster"), Map.entry(TIMECODE, "Timecode"), Map.entry(SIMPLE_BLOCK, "SimpleBlock"),
        Map.entry(BLOCK_GROUP, "BlockGroup"), Map.entry(BLOCK, "Block"), Map.entry(BLOCK_DURATION, "BlockDuration"),
        Map.entry(CUES, "Cues"), Map.entry(TAGS, "Tags"), Map.entry(CHAPTERS, "Chapters"),
        Map.entry(ATTACHMENTS, "Attachments"), Map.entry(VOID, "Void"), Map.entry(CRC_32, "CRC-32"),
        Map.entry(REFERENCE_BLOCK, "ReferenceBlock"), Map.entry(WRITING_APP, "WritingApp"),
        Map.entry(MUXING_APP, "MuxingApp"), Map.entry(CONTENT_ENCODINGS, "ContentEncodings"),
        Map.entry(CODEC_DELAY, "CodecDelay"), Map.entry(VIDEO, "Video"), Map.entry(PIXEL_WIDTH, "PixelWidth"),
        Map.entry(PIXEL_HEIGHT, "PixelHeight"), Map.entry(AUDIO, "Audio"),
        Map.entry(SAMPLING_FREQUENCY, "SamplingFrequency"), Map.entry(CHANNELS, "Channels"));

    /** One element's header: where it is, its ID and the size of its data. */
    record Header(int id, long offset, long dataOffset, long size) {

        boolean unknownSize() {
            return size == UNKNOWN_SIZE;
        }

        /** The offset just past its data; only for a known size. */
        long end() {
            return dataOffset + size;
        }

        String name() {
            return Ebml.name(id);
        }

        /** {@code the Cluster at byte 4129}. */
        String describe() {
            return "the " + name() + " at byte " + offset;
        }
    }

    private Ebml() {
    }

    static String name(int id) {
        String name = NAMES.get(id);
        return name != null ? name : String.format("element 0x%X", id);
    }

    /** Whether {@code head} starts with the EBML magic number. */
    public static boolean sniff(ByteBuffer head) {
        return head.remaining() >= 4 && head.getInt(head.position()) == EBML;
    }

    /** The elements that end an element of unknown size: the Segment's children and a new EBML document. */
    static boolean isTopLevel(int id) {
        return id == CLUSTER || id == CUES || id == TAGS || id == INFO || id == TRACKS || id == SEEK_HEAD
            || id == CHAPTERS || id == ATTACHMENTS || id == EBML || id == SEGMENT;
    }

    /** The header of the element at {@code pos} of the file. */
    static Header header(MediaFile in, long pos) throws IOException {
        return header(in.peek(pos, MAX_HEADER_BYTES), pos, in.size(), null);
    }

    /**
     * The header at index 0 of {@code buf}, which holds the bytes from {@code offset} up to at most
     * {@code limit}: the end of the file ({@code parent} null) or of the parent element.
     */
    static Header header(ByteBuffer buf, long offset, long limit, String parent) throws MediaFormatException {
        int first = byteAt(buf, 0, offset, limit, parent);
        if (first == 0) {
            throw MediaFormatException.corrupt("the element ID at byte " + offset + " starts with a zero byte,"
                + " which is not EBML");
        }
        int idLength = Integer.numberOfLeadingZeros(first) - 23;
        if (idLength > 4) {
            throw MediaFormatException.corrupt("the element ID at byte " + offset + " is " + idLength
                + " bytes long; Matroska IDs have at most 4");
        }
        int id = first;
        for (int i = 1; i < idLength; i++) {
            id = (id << 8) | byteAt(buf, i, offset, limit, parent);
        }
        int sizeFirst = byteAt(buf, idLength, offset, limit, parent);
        if (sizeFirst == 0) {
            throw MediaFormatException.corrupt("the size of the " + name(id) + " at byte " + offset
                + " starts with a zero byte, which is not EBML");
        }
        int sizeLength = Integer.numberOfLeadingZeros(sizeFirst) - 23;
        int mask = 0xFF >> sizeLength;
        long size = sizeFirst & mask;
        boolean allOnes = size == mask;
        for (int i = 1; i < sizeLength; i++) {
            int b = byteAt(buf, idLength + i, offset, limit, parent);
            size = (size << 8) | b;
            allOnes &= b == 0xFF;
        }
        return new Header(id, offset, offset + idLength + sizeLength, allOnes ? UNKNOWN_SIZE : size);
    }

    private static int byteAt(ByteBuffer buf, int i, long offset, long limit, String parent)
        throws MediaFormatException {
        if (i >= buf.remaining()) {
            if (parent == null) {
                throw MediaFormatException.truncated("the file ends at byte " + limit
                    + " inside the header of the element at byte " + offset);
            }
            throw MediaFormatException.corrupt("the header of the element at byte " + offset
                + " runs past the end of " + parent + " at byte " + limit);
        }
        return buf.get(buf.position() + i) & 0xFF;
    }

    /** An unsigned integer element of 0 to 8 bytes that must fit a signed long. */
    static long uint(ByteBuffer data, Header h) throws MediaFormatException {
        if (data.remaining() > 8) {
            throw MediaFormatException.corrupt(h.describe() + " is an integer of " + data.remaining()
                + " bytes; at most 8 are allowed");
        }
        long v = 0;
        for (int i = data.position(); i < data.limit(); i++) {
            v = (v << 8) | (data.get(i) & 0xFF);
        }
        if (v < 0) {
            throw MediaFormatException.corrupt(h.describe() + " holds " + Long.toUnsignedString(v)
                + ", too large to be real");
        }
        return v;
    }

    /** A float element: 0, 4 or 8 bytes. */
    static double floatValue(ByteBuffer data, Header h) throws MediaFormatException {
        switch (data.remaining()) {
            case 0:
                return 0;
            case 4:
                return data.getFloat(data.position());
            case 8:
                return data.getDouble(data.position());
            default:
                throw MediaFormatException.corrupt(h.describe() + " is a float of " + data.remaining()
                    + " bytes; it must be 4 or 8");
        }
    }

    /** A string element: ASCII or UTF-8, padded with zero bytes. */
    static String string(ByteBuffer data) {
        byte[] bytes = new byte[data.remaining()];
        data.get(data.position(), bytes);
        int n = bytes.length;
        while (n > 0 && bytes[n - 1] == 0) {
            n--;
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    /** What a visitor of {@link #children} is given: one child's header and its data. */
    @FunctionalInterface
    interface ChildVisitor {
        void visit(Header child, ByteBuffer data) throws MediaFormatException;
    }

    /**
     * Visits the children of an element held in memory: {@code body} is its data (index 0 at file
     * offset {@code base}). Children must have a known size within the parent.
     */
    static void children(ByteBuffer body, long base, Header parent, ChildVisitor visitor) throws MediaFormatException {
        int i = 0;
        long limit = base + body.limit();
        while (i < body.limit()) {
            ByteBuffer rest = body.slice(i, body.limit() - i);
            Header child = header(rest, base + i, limit, parent.describe());
            if (child.unknownSize()) {
                throw MediaFormatException.corrupt(child.describe() + " inside " + parent.describe()
                    + " has an unknown size, which only a Segment or a Cluster may have");
            }
            if (child.end() > limit) {
                throw MediaFormatException.corrupt(child.describe() + " claims " + child.size()
                    + " bytes, past the end of " + parent.describe() + " at byte " + limit);
            }
            int dataIndex = (int) (child.dataOffset() - base);
            visitor.visit(child, body.slice(dataIndex, (int) child.size()));
            i = (int) (child.end() - base);
        }
    }
}

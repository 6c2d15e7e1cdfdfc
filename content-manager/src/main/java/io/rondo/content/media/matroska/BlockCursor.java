package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.matroska.Ebml.Header;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import io.rondo.content.media.matroska.MatroskaDemuxer.Source;

/**
 * Walks the blocks (SimpleBlock, or BlockGroup with its Block) in file order, one {@link #next}
 * at a time, through Clusters of known or unknown size, skipping Cues, Tags, Void and whatever
 * else lies between them. The fields of the current block are valid until the next call.
 */
final class BlockCursor {

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

    BlockCursor(Source source, long from, long limit, long clusterLimit, long fileSize, long clusterOffset,
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

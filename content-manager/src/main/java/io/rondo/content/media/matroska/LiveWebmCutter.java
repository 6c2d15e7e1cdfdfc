package io.rondo.content.media.matroska;

import io.rondo.content.media.LiveCutter;
import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.LiveHeader;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.matroska.Ebml.Header;
import io.rondo.content.media.matroska.MatroskaDemuxer.Info;
import io.rondo.content.media.matroska.MatroskaDemuxer.Track;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Live WebM and Matroska, as {@code ffmpeg -f webm -} and Chromium's MediaRecorder write them,
 * re-cut on arrival into one Cluster per round by the rules of {@link WebmRemuxer}, so that a
 * recording is stored as ingest stores a file (papers/001 Section 1.1: fragments of one round).
 *
 * <p>The bytes are parsed as they come, in any chunking: the Segment and its Clusters may be of
 * unknown size (ending where the next top-level element begins) or of known size. Info and Tracks
 * make the {@link LiveHeader}: the EBML header, a Segment of unknown size, Info without Duration,
 * and the audio and video TrackEntries byte for byte. Blocks (SimpleBlocks, and BlockGroups kept
 * whole) are copied untouched but for their 16-bit relative timecode, rewritten against the
 * round's Cluster, whose Timecode is the round's start on the recording's timeline
 * ({@link LiveTimeline}). SeekHead, Cues, Tags, Void and the like are skipped as they stream past,
 * without being held; the blocks of tracks that are neither audio nor video are left out.
 *
 * <p>What is held is bounded: an element held whole (a block, Info, Tracks) is at most
 * {@value #MAX_ELEMENT_BYTES} bytes, and the blocks of the round being cut and the undecided ones
 * after it at most {@link LiveRounds#MAX_HELD_BYTES}. An element cut short by the end of the
 * stream is dropped by {@link #finish()}: a publisher stopped mid-block loses that block only.
 */
public final class LiveWebmCutter implements LiveCutter {

    /** The largest element held whole. */
    static final int MAX_ELEMENT_BYTES = 64 << 20;

    /** How much of a fed buffer is parsed at a time, so that a large feed is not copied whole. */
    private static final int SLICE_BYTES = 1 << 20;
    private static final int MAGIC_BYTES = 4;
    private static final int INITIAL_BYTES = 64 << 10;

    private enum Phase { EBML_HEADER, SEGMENT, BODY }

    private final long roundNs;
    private final long maxJumpNs;
    private byte[] held = new byte[INITIAL_BYTES];
    private int from;
    private int to;
    private long offset;
    private long skip;
    private Phase phase = Phase.EBML_HEADER;
    private long segmentEnd = Long.MAX_VALUE;
    private long clusterOffset;
    private long clusterEnd = BlockCursor.NOT_IN_CLUSTER;
    private long clusterTimecode = -1;
    private Info info;
    private List<Track> tracks;
    private LiveHeader header;
    private LiveTimeline timeline;
    private LiveRounds rounds;
    private String failed;
    private boolean finished;

    /**
     * @param roundNs   the round length T: one Cluster per round
     * @param maxJumpNs how far forward timestamps may jump (a gap, written as rounds of no block)
     *                  before the jump is a discontinuity that the timeline closes
     */
    public LiveWebmCutter(long roundNs, long maxJumpNs) {
        if (roundNs <= 0 || maxJumpNs < 0) {
            throw new IllegalArgumentException("a live cutter needs a positive round and a jump limit >= 0, was "
                + roundNs + " ns and " + maxJumpNs + " ns");
        }
        this.roundNs = roundNs;
        this.maxJumpNs = maxJumpNs;
    }

    @Override
    public List<LiveFragment> feed(ByteBuffer bytes) throws MediaFormatException {
        usable();
        List<LiveFragment> out = new ArrayList<>();
        try {
            while (bytes.hasRemaining()) {
                int n = Math.min(bytes.remaining(), SLICE_BYTES);
                hold(bytes, n);
                parse(out);
            }
        } catch (MediaFormatException e) {
            failed = e.getMessage();
            throw e;
        }
        return out;
    }

    @Override
    public List<LiveFragment> finish() throws MediaFormatException {
        usable();
        finished = true;
        try {
            if (header == null && tracks != null) {
                start();
            }
            if (header == null) {
                if (offset + to - from > 0) {
                    throw MediaFormatException.truncated("the stream ended at byte " + (offset + to - from)
                        + ", before its Tracks: there is no media to record");
                }
                return List.of();
            }
            List<LiveFragment> out = new ArrayList<>();
            rounds.finish(out);
            return out;
        } catch (MediaFormatException e) {
            failed = e.getMessage();
            throw e;
        }
    }

    @Override
    public LiveHeader header() {
        return header;
    }

    @Override
    public int discontinuities() {
        return timeline == null ? 0 : timeline.discontinuities();
    }

    private void usable() {
        if (failed != null) {
            throw new IllegalStateException("this live cutter stopped at a format error: " + failed);
        }
        if (finished) {
            throw new IllegalStateException("this live cutter was finished");
        }
    }

    /**
     * Appends the next {@code n} bytes of {@code bytes} to {@link #held}, moving the bytes not yet
     * parsed to its start, into a larger array where they do not fit, or a smaller one once a large
     * element has gone.
     */
    private void hold(ByteBuffer bytes, int n) {
        if (to + n > held.length) {
            int length = to - from;
            int fits = Math.max(INITIAL_BYTES, Integer.highestOneBit(length + n) << 1);
            byte[] into = length + n > held.length || fits < held.length / 2 ? new byte[fits] : held;
            System.arraycopy(held, from, into, 0, length);
            held = into;
            from = 0;
            to = length;
        }
        bytes.get(held, to, n);
        to += n;
    }

    private void consume(long n) {
        from += (int) n;
        offset += n;
    }

    private void parse(List<LiveFragment> out) throws MediaFormatException {
        while (true) {
            if (skip > 0) {
                int n = (int) Math.min(skip, to - from);
                consume(n);
                skip -= n;
                if (skip > 0) {
                    return;
                }
            }
            if (clusterEnd >= 0 && offset >= clusterEnd) {
                clusterEnd = BlockCursor.NOT_IN_CLUSTER;
            }
            if (phase == Phase.BODY && offset >= segmentEnd && to > from) {
                throw MediaFormatException.unsupported("byte " + offset + " follows the end of the Segment:"
                    + " a publisher sends one WebM stream");
            }
            if (phase == Phase.EBML_HEADER) {
                magic();
            }
            Header h = nextHeader();
            if (h == null || !element(h, out)) {
                return;
            }
        }
    }

    /** Fails at once on a stream that does not start as EBML does. */
    private void magic() throws MediaFormatException {
        int n = Math.min(MAGIC_BYTES, to - from);
        for (int i = 0; i < n; i++) {
            if (held[from + i] != (byte) (Ebml.EBML >>> (8 * (MAGIC_BYTES - 1 - i)))) {
                throw MediaFormatException.corrupt("the stream is not WebM or Matroska: it starts with "
                    + HexFormat.ofDelimiter(" ").withUpperCase().formatHex(held, from, from + n)
                    + ", not the EBML magic number 1A 45 DF A3");
            }
        }
    }

    /** The header of the next element, or null until its bytes have arrived. */
    private Header nextHeader() throws MediaFormatException {
        int available = to - from;
        if (available == 0) {
            return null;
        }
        ByteBuffer head = ByteBuffer.wrap(held, from, available).slice();
        int first = held[from] & 0xFF;
        int idLength = Integer.numberOfLeadingZeros(first) - 23;
        if (first != 0 && idLength <= 4) {
            if (available <= idLength) {
                return null;
            }
            int sizeFirst = held[from + idLength] & 0xFF;
            int sizeLength = Integer.numberOfLeadingZeros(sizeFirst) - 23;
            if (sizeFirst != 0 && available < idLength + sizeLength) {
                return null;
            }
        }
        return Ebml.header(head, offset, Long.MAX_VALUE, "the stream");
    }

    /** Takes the element {@code h}; false while more of its bytes are needed. */
    private boolean element(Header h, List<LiveFragment> out) throws MediaFormatException {
        switch (phase) {
            case EBML_HEADER -> {
                ByteBuffer body = whole(h);
                if (body == null) {
                    return false;
                }
                String[] docType = {"matroska"};
                Ebml.children(body, h.dataOffset(), h, (c, data) -> {
                    if (c.id() == Ebml.DOC_TYPE) {
                        docType[0] = Ebml.string(data);
                    }
                });
                if (!docType[0].equals("webm") && !docType[0].equals("matroska")) {
                    throw MediaFormatException.unsupported("the stream is an EBML document of type " + docType[0]
                        + ", neither WebM nor Matroska");
                }
                consume(h.end() - h.offset());
                phase = Phase.SEGMENT;
            }
            case SEGMENT -> {
                if (h.id() == Ebml.SEGMENT) {
                    segmentEnd = h.unknownSize() ? Long.MAX_VALUE : h.end();
                    consume(h.dataOffset() - h.offset());
                    phase = Phase.BODY;
                } else if (h.id() == Ebml.VOID && !h.unknownSize()) {
                    skip(h);
                } else {
                    throw MediaFormatException.corrupt("a Segment should follow the EBML header at byte " + h.offset()
                        + ", but " + h.describe() + " does");
                }
            }
            default -> {
                return body(h, out);
            }
        }
        return true;
    }

    /** Takes an element inside the Segment: a Cluster, a child of one, or another child of the Segment. */
    private boolean body(Header h, List<LiveFragment> out) throws MediaFormatException {
        int id = h.id();
        if (clusterEnd == BlockCursor.UNKNOWN_END && Ebml.isTopLevel(id)) {
            clusterEnd = BlockCursor.NOT_IN_CLUSTER;
        }
        if (id == Ebml.EBML || id == Ebml.SEGMENT) {
            throw MediaFormatException.unsupported(h.describe() + " starts a second EBML document:"
                + " a publisher sends one WebM stream, and publishes again to send another");
        }
        if (!h.unknownSize() && h.end() > segmentEnd) {
            throw MediaFormatException.corrupt(h.describe() + " claims " + h.size() + " bytes, past the end of"
                + " the Segment at byte " + segmentEnd);
        }
        boolean inCluster = clusterEnd != BlockCursor.NOT_IN_CLUSTER;
        if (h.unknownSize() && !(id == Ebml.CLUSTER && !inCluster)) {
            throw MediaFormatException.corrupt(h.describe() + " has an unknown size, which only a Segment or a"
                + " Cluster may have");
        }
        if (inCluster && clusterEnd >= 0 && h.end() > clusterEnd) {
            throw MediaFormatException.corrupt(h.describe() + " claims " + h.size() + " bytes, past the end of"
                + " the Cluster at byte " + clusterOffset + ", which ends at byte " + clusterEnd);
        }
        if (!inCluster && id == Ebml.CLUSTER) {
            if (header == null) {
                start();
            }
            clusterOffset = h.offset();
            clusterEnd = h.unknownSize() ? BlockCursor.UNKNOWN_END : h.end();
            clusterTimecode = -1;
            consume(h.dataOffset() - h.offset());
            return true;
        }
        if (!inCluster && (id == Ebml.SIMPLE_BLOCK || id == Ebml.BLOCK_GROUP || id == Ebml.TIMECODE)) {
            throw MediaFormatException.corrupt(h.describe() + " lies outside any Cluster");
        }
        boolean needed = inCluster ? id == Ebml.TIMECODE || id == Ebml.SIMPLE_BLOCK || id == Ebml.BLOCK_GROUP
            : header == null && (id == Ebml.INFO || id == Ebml.TRACKS);
        if (!needed) {
            skip(h);
            return true;
        }
        ByteBuffer data = whole(h);
        if (data == null) {
            return false;
        }
        if (id == Ebml.INFO) {
            info = Info.read(h, data);
        } else if (id == Ebml.TRACKS) {
            tracks = MatroskaDemuxer.readTracks(h, data);
            if (info != null) {
                start();
            }
        } else if (id == Ebml.TIMECODE) {
            clusterTimecode = Ebml.uint(data, h);
        } else {
            block(h, out);
        }
        consume(h.end() - h.offset());
        return true;
    }

    /** The data of element {@code h}, copied out of {@link #held}; null until it has all arrived. */
    private ByteBuffer whole(Header h) throws MediaFormatException {
        if (h.size() > MAX_ELEMENT_BYTES) {
            throw MediaFormatException.unsupported(h.describe() + " is " + h.size() + " bytes, more than the "
                + MAX_ELEMENT_BYTES + " a live recording holds at once");
        }
        int headerBytes = (int) (h.dataOffset() - h.offset());
        if (to - from < headerBytes + h.size()) {
            return null;
        }
        int at = from + headerBytes;
        return ByteBuffer.wrap(Arrays.copyOfRange(held, at, at + (int) h.size()));
    }

    private void skip(Header h) {
        consume(h.dataOffset() - h.offset());
        skip = h.size();
    }

    /** Info and Tracks have arrived: the header, and the timeline and rounds of the blocks to come. */
    private void start() throws MediaFormatException {
        if (tracks == null) {
            throw MediaFormatException.corrupt("the Cluster at byte " + offset + " comes before any Tracks:"
                + " the codecs are not known");
        }
        List<Track> kept = tracks.stream().filter(WebmRemuxer::isKept).toList();
        for (Track t : kept) {
            if (!MatroskaCodecs.playsInWebm(t)) {
                throw MediaFormatException.unsupported("track " + t.number() + " is " + t.codecId() + " ("
                    + MatroskaCodecs.humanName(t.codecId()) + "), which browsers do not play from WebM: publish VP8,"
                    + " VP9 or AV1 video with Opus or Vorbis audio as WebM, or H.264 and AAC as fragmented MP4");
            }
            if (t.compressed()) {
                throw MediaFormatException.unsupported("track " + t.number() + " (" + t.codecId() + ") is"
                    + " compressed by its muxer (ContentCompression), which browsers cannot undo");
            }
        }
        long video = kept.stream().filter(Track::isVideo).mapToLong(Track::number).findFirst().orElse(-1);
        Info segment = info != null ? info : Info.DEFAULT;
        long scale = segment.timecodeScale();
        byte[] init = WebmRemuxer.init(scale, segment.writingApp(), kept, -1);
        header = new LiveHeader("webm", video >= 0 ? "video/webm" : "audio/webm", MatroskaCodecs.codecs(kept), init);
        timeline = new LiveTimeline(roundNs, maxJumpNs, scale);
        rounds = new LiveRounds(roundNs, scale, video);
    }

    /** Copies the SimpleBlock or BlockGroup {@code h}, whole in {@link #held}, to the round it plays in. */
    private void block(Header h, List<LiveFragment> out) throws MediaFormatException {
        int length = (int) (h.end() - h.offset());
        byte[] bytes = Arrays.copyOfRange(held, from, from + length);
        long start = h.offset();
        MatroskaDemuxer.Source source = (pos, n) -> ByteBuffer.wrap(bytes, (int) (pos - start),
            (int) Math.min(n, h.end() - pos)).slice();
        BlockCursor block = new BlockCursor(source, start, h.end(), Long.MAX_VALUE, h.end(), clusterOffset,
            BlockCursor.UNKNOWN_END, clusterTimecode);
        try {
            block.next();
        } catch (MediaFormatException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("a block held in memory cannot fail to be read", e);
        }
        Track track = findTrack(block.track());
        if (!WebmRemuxer.isKept(track)) {
            return;
        }
        String where = block.describe();
        long ticks = timeline.ticks(block.track(), block.timecode(), where);
        long ns = timeline.ns(ticks, where);
        long durationNs = block.durationTicks() >= 0 ? timeline.ns(block.durationTicks(), where)
            : track.defaultDurationNs() * block.frames();
        rounds.add(new LiveRounds.Block(bytes, (int) (block.timecodeOffset() - start), block.track(), ticks,
            Math.max(0, Math.floorDiv(ns, roundNs)), rounds.decidesKeyframes(block.track()), block.keyframe(), where),
            ns + durationNs, out);
    }

    private Track findTrack(long number) {
        for (Track t : tracks) {
            if (t.number() == number) {
                return t;
            }
        }
        return null;
    }
}

package io.rondo.content.media.matroska;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.MediaNotes;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.isobmff.FragmentedMp4Writer;
import io.rondo.content.media.matroska.MatroskaDemuxer.Track;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * WebM and Matroska remuxed into the WebM that Rondo stores: one Cluster per round T of
 * presentation, so that a fragment is one round (papers/001 Section 1.1) whatever GOP the encoder
 * chose and however long the muxer made its Clusters (ffmpeg's last until the next keyframe).
 *
 * <p>The stored copy is
 * <ul>
 *   <li>an EBML header of DocType {@code webm} (version 4, read version 2, as ffmpeg writes): a
 *       Matroska file whose codecs play from WebM becomes WebM that MediaSource accepts;
 *   <li>a Segment of unknown size, as live WebM has, since nothing in it points at offsets;
 *   <li>Info: the source's TimecodeScale, the Duration (as a float), MuxingApp {@code Rondo} and the
 *       source's WritingApp;
 *   <li>Tracks: the source's audio and video TrackEntries, byte for byte;
 *   <li>for every round k a Cluster of known size whose Timecode is the round's start kT (in ticks,
 *       rounded down), so that a Cluster names its round even where its first block is audio muxed a
 *       little late, followed by the round's blocks. A round in which no block starts (a gap in the
 *       media) is a Cluster with only its Timecode.
 * </ul>
 * Dropped: SeekHead and Cues (their offsets would be wrong; the fragment index replaces them),
 * Chapters, Tags, Attachments, Void and CRC-32 elements, and the blocks of subtitle and other tracks
 * that are neither audio nor video (named in the ingest note), and of tracks that Tracks does not list.
 *
 * <p>Blocks are cut in file order: round k+1's Cluster starts at its first video keyframe where it
 * has one (the frames before it, and the audio muxed beside them, go with round k, so a stream that
 * starts at round k+1 starts at a keyframe), else at the first block whose time is at least
 * (k+1)T, and blocks after it that play a little earlier (audio interleaved late) stay with
 * it, with a negative relative timecode (Chromium's MSE takes those). Every block is copied as it
 * is, a BlockGroup with all its children, laces untouched, except its 16-bit relative timecode,
 * rewritten against the new Cluster; a block too far from its round's start for 16 bits of ticks is
 * refused. Within a Cluster the blocks go in time order: Chromium's MSE refuses a Cluster whose
 * blocks go back in time (WebMClusterParser: "a timecode before the previous block"), and a source
 * whose Clusters each run forward may still step back where one ends and the next begins, inside
 * one round. The sort is stable, so each track's frames keep their order.
 *
 * <p>Planning walks the block headers once ({@link MatroskaDemuxer}) and keeps, per round, where
 * its blocks lie in the source (they are contiguous there, with Cluster headers and skipped
 * elements between them) and the Cluster they start in. {@link #writeFragment} reads that span in
 * one read into a buffer it reuses, walks it again, rewrites the timecodes in place and writes the
 * blocks out, so memory is one round's bytes however long the film.
 */
public final class WebmRemuxer implements StoredMedia {

    /** The most bytes one round may span in the source: what {@link #writeFragment} holds at once. */
    static final int MAX_ROUND_SPAN_BYTES = 256 << 20;

    private final MediaFile in;
    private final MatroskaDemuxer demuxer;
    private final byte[] init;
    private final MediaIndex index;
    private final WebmRounds rounds;
    private ByteBuffer span = ByteBuffer.allocate(0);
    private final ByteBuffer clusterHeader = ByteBuffer.allocate(32);
    private final KeptBlocks kept = new KeptBlocks();

    private WebmRemuxer(MediaFile in, MatroskaDemuxer demuxer, byte[] init, MediaIndex index, WebmRounds rounds) {
        this.in = in;
        this.demuxer = demuxer;
        this.init = init;
        this.index = index;
        this.rounds = rounds;
    }

    /**
     * What ingest makes of the EBML file {@code file}: WebM with one Cluster per round if its audio
     * and video play from WebM; a fragmented MP4 with a moof + mdat per round if they play from MP4
     * instead (H.264 or H.265 with AAC, MP3 or Opus: {@link MatroskaMp4Remuxer}); a discrete object
     * with a note naming the codec and the ffmpeg command that makes it streamable if neither; a
     * discrete object without note if it is EBML but not Matroska.
     *
     * @param roundNs the round length T
     * @throws MediaFormatException if the file is truncated, corrupt, or holds no audio or video
     */
    public static Preparation prepare(Path file, long roundNs) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        return prepare(MediaFile.open(file), file, roundNs);
    }

    /** {@link #prepare(Path, long)} of the file {@code in}, opened from {@code file}; closes it unless continuous. */
    static Preparation prepare(MediaFile in, Path file, long roundNs) throws IOException {
        try {
            Optional<MatroskaDemuxer> opened = MatroskaDemuxer.open(in);
            if (opened.isEmpty()) {
                in.close();
                return new Preparation.Discrete(null);
            }
            MatroskaDemuxer demuxer = opened.get();
            String note = MatroskaCodecs.unplayableNote(demuxer.tracks(), file);
            String dropped = MatroskaCodecs.droppedTracks(demuxer.tracks(), file);
            if (note != null && MatroskaMp4Remuxer.remuxes(demuxer.tracks())) {
                FragmentedMp4Writer mp4 = MatroskaMp4Remuxer.plan(demuxer, file, roundNs);
                in.close();
                List<Long> hevc = demuxer.tracks().stream().filter(t -> t.codecId().equals("V_MPEGH/ISO/HEVC"))
                    .map(Track::number).toList();
                boolean audio = demuxer.tracks().stream().anyMatch(Track::isAudio);
                return new Preparation.Continuous(mp4, MediaNotes.join(MediaNotes.hevc(hevc, audio, file), dropped));
            }
            if (note != null) {
                in.close();
                return new Preparation.Discrete(MediaNotes.join(note, dropped));
            }
            return new Preparation.Continuous(plan(in, demuxer, roundNs), dropped);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    private static WebmRemuxer plan(MediaFile in, MatroskaDemuxer demuxer, long roundNs) throws IOException {
        List<Track> kept = demuxer.tracks().stream().filter(WebmRemuxer::isKept).toList();
        long video = kept.stream().filter(Track::isVideo).mapToLong(Track::number).findFirst().orElse(-1);
        long scale = demuxer.timecodeScale();
        int[] openers = openers(demuxer, video, roundNs);
        WebmRounds rounds = new WebmRounds();
        long round = -1;
        long lastBlockEndNs = 0;
        int ordinal = 0;
        BlockCursor block = demuxer.blocks();
        while (block.next()) {
            Track track = demuxer.track(block.track());
            if (!isKept(track)) {
                continue;
            }
            long startNs = demuxer.ns(block.timecode(), block.describe());
            if (round + 1 < openers.length && openers[(int) round + 1] == ordinal) {
                while (round + 1 < openers.length && openers[(int) round + 1] == ordinal) {
                    round++;
                    rounds.add(round * roundNs / scale);
                }
                rounds.startAt(block);
            }
            ordinal++;
            relativeTimecode(block, rounds.clusterTicks(), round * roundNs, scale);
            rounds.append(block);
            if (block.track() == video) {
                rounds.video(block.keyframe(), Math.max(0, startNs));
            }
            lastBlockEndNs = Math.max(lastBlockEndNs, startNs + blockDurationNs(block, track, demuxer));
        }
        if (round < 0) {
            throw MediaFormatException.corrupt("the Segment holds no block of an audio or video track:"
                + " there is no media to play");
        }
        // Info's Duration where it is believable: not before the last round starts, nor more than a
        // round past the end of the last block; else the end of the last block.
        long lastRoundNs = round * roundNs;
        long infoNs = demuxer.durationNs();
        long durationNs = infoNs >= lastRoundNs && infoNs <= lastBlockEndNs + roundNs ? infoNs
            : Math.max(lastBlockEndNs, lastRoundNs);

        byte[] init = init(demuxer.timecodeScale(), demuxer.writingApp(), kept, durationNs);
        List<Fragment> fragments = new ArrayList<>(rounds.count());
        long offset = init.length;
        for (int i = 0; i < rounds.count(); i++) {
            long startNs = i * roundNs;
            long fragmentNs = i == rounds.count() - 1 ? durationNs - startNs : roundNs;
            long length = rounds.clusterBytes(i);
            fragments.add(video < 0 ? Fragment.unplaced(startNs, fragmentNs, offset, length) : Fragment.unplaced(
                startNs, fragmentNs, offset, length, rounds.keyframeNs(i), rounds.keyframeFirst(i)));
            offset += length;
        }
        MediaIndex index = new MediaIndex("webm", video >= 0 ? "video/webm" : "audio/webm",
            MatroskaCodecs.codecs(kept), durationNs, new ByteRange(0, init.length), fragments);
        return new WebmRemuxer(in, demuxer, init, index, rounds);
    }

    /**
     * The first pass over the blocks: for every round, the ordinal (among the kept blocks, in file
     * order) of the block its Cluster starts with, as {@link RoundOpeners} decides it. A round
     * whose opener is the next one's holds no block.
     */
    private static int[] openers(MatroskaDemuxer demuxer, long video, long roundNs) throws IOException {
        RoundOpeners decider = new RoundOpeners(video >= 0);
        Openers openers = new Openers();
        BlockCursor block = demuxer.blocks();
        while (block.next()) {
            if (!isKept(demuxer.track(block.track()))) {
                continue;
            }
            long k = Math.max(0, Math.floorDiv(demuxer.ns(block.timecode(), block.describe()), roundNs));
            if (k >= Integer.MAX_VALUE - 1) {
                throw MediaFormatException.corrupt(block.describe() + " plays " + k + " rounds from the start,"
                    + " too late to be real");
            }
            openers.blocks++;
            decider.next(k, block.track() == video && block.keyframe(), openers);
        }
        decider.finish(openers);
        return openers.blocks == 0 ? new int[0] : Arrays.copyOf(openers.at, openers.count);
    }

    /** The ordinal each round opens at, as the rounds close. */
    private static final class Openers implements RoundOpeners.Closer {
        private int[] at = new int[64];
        private int count = 1;
        private int blocks;

        @Override
        public void close(int roundBlocks) {
            if (count == at.length) {
                at = Arrays.copyOf(at, count * 2);
            }
            at[count] = at[count - 1] + roundBlocks;
            count++;
        }
    }

    /** Whether the blocks of {@code track} are stored: audio and video, not subtitles, nor tracks Tracks lacks. */
    static boolean isKept(Track track) {
        return track != null && (track.isVideo() || track.isAudio());
    }

    /** How long a block plays: its BlockDuration, else its track's DefaultDuration per frame, else 0. */
    private static long blockDurationNs(BlockCursor block, Track track, MatroskaDemuxer demuxer)
        throws MediaFormatException {
        if (block.durationTicks() >= 0) {
            return demuxer.ns(block.durationTicks(), block.describe());
        }
        return track.defaultDurationNs() * block.frames();
    }

    /** The block's timecode relative to its new Cluster's, which must fit the block's 16 bits. */
    private static short relativeTimecode(BlockCursor block, long clusterTicks, long roundStartNs, long scale)
        throws MediaFormatException {
        return relativeTimecode(block::describe, block.track(), block.timecode(), clusterTicks, roundStartNs, scale);
    }

    /**
     * The timecode relative to its new Cluster's of a block of {@code track} at {@code ticks},
     * which must fit the block's 16 bits.
     *
     * @param block what to call the block in a message: {@code the SimpleBlock at byte 4130}
     */
    static short relativeTimecode(Supplier<String> block, long track, long ticks, long clusterTicks,
                                  long roundStartNs, long scale) throws MediaFormatException {
        long relative = ticks - clusterTicks;
        if (relative < Short.MIN_VALUE || relative > Short.MAX_VALUE) {
            throw MediaFormatException.unsupported(block.get() + " (track " + track + ", at "
                + Ticks.seconds(ticks * scale) + ") is " + relative + " ticks of " + scale
                + " ns from the start of its round at " + Ticks.seconds(roundStartNs)
                + ", more than the 16-bit timecode of a block reaches; if the tracks are not interleaved,"
                + " remux with ffmpeg -i IN -c copy OUT.webm");
        }
        return (short) relative;
    }

    /** The init segment of WebM holding the tracks {@code kept}; without Duration where {@code durationNs} is -1. */
    static byte[] init(long timecodeScale, String writingApp, List<Track> kept, long durationNs) {
        byte[][] entries = new byte[kept.size()][];
        for (int i = 0; i < entries.length; i++) {
            ByteBuffer entry = kept.get(i).entry();
            entries[i] = new byte[entry.remaining()];
            entry.get(entry.position(), entries[i]);
        }
        return WebmSegment.init(timecodeScale, writingApp, durationNs, entries);
    }

    @Override
    public MediaIndex index() {
        return index;
    }

    @Override
    public void writeInit(WritableByteChannel out) throws IOException {
        StoredMedia.writeFully(out, ByteBuffer.wrap(init));
    }

    @Override
    public void writeFragment(int i, WritableByteChannel out) throws IOException {
        long clusterTicks = rounds.clusterTicks[i];
        clusterHeader.clear();
        WebmSegment.putClusterHeader(clusterHeader, clusterTicks, rounds.blockBytes[i]);
        clusterHeader.flip();
        int blocks = rounds.blocks[i] == 0 ? 0 : rewriteTimecodes(i, clusterTicks);
        if (!rounds.inOrder[i]) {
            sortByTime(blocks);
        }
        StoredMedia.writeFully(out, clusterHeader);
        int run = 0;
        while (run < blocks) {
            int next = run + 1;
            while (next < blocks && kept.from(next) == kept.to(next - 1)) {
                next++;
            }
            StoredMedia.writeFully(out, span.slice(kept.from(run), kept.to(next - 1) - kept.from(run)));
            run = next;
        }
    }

    /**
     * Reads round {@code i}'s span of the source into {@link #span}, rewrites each kept block's
     * relative timecode there, and notes the kept blocks in {@link #kept}, in file order.
     *
     * @return how many blocks
     */
    private int rewriteTimecodes(int i, long clusterTicks) throws IOException {
        long start = rounds.spanStart[i];
        long end = rounds.spanEnd[i];
        int length = (int) (end - start);
        if (span.capacity() < length) {
            span = ByteBuffer.allocate(length);
        }
        span.clear().limit(length);
        in.readFully(start, span);
        MatroskaDemuxer.Source source = (pos, n) -> span.slice((int) (pos - start), (int) Math.min(n, end - pos));
        BlockCursor block = demuxer.blocks(source, start, end, rounds.clusterOffset[i], rounds.clusterEnd[i],
            rounds.clusterTimecode[i]);
        kept.clear();
        long bytes = 0;
        try {
            while (block.next()) {
                if (!isKept(demuxer.track(block.track()))) {
                    continue;
                }
                short relative = relativeTimecode(block, clusterTicks, index.fragments().get(i).startNs(),
                    demuxer.timecodeScale());
                span.putShort((int) (block.timecodeOffset() - start), relative);
                kept.add((int) (block.elementOffset() - start), (int) (block.elementEnd() - start), relative);
                bytes += block.elementEnd() - block.elementOffset();
            }
        } catch (MediaFormatException e) {
            throw changed(i, e.getMessage(), e);
        }
        if (kept.size() != rounds.blocks[i] || bytes != rounds.blockBytes[i]) {
            throw changed(i, "its bytes " + start + " to " + end + " now hold " + kept.size() + " blocks of " + bytes
                + " bytes, not " + rounds.blocks[i] + " of " + rounds.blockBytes[i], null);
        }
        return kept.size();
    }

    /**
     * Puts the first {@code n} kept blocks in time order, keeping the file order of blocks of the
     * same time (an insertion sort: the blocks come nearly sorted, out of order only where the
     * source's Clusters meet).
     */
    private void sortByTime(int n) {
        for (int i = 1; i < n; i++) {
            for (int j = i; j > 0 && kept.time(j) < kept.time(j - 1); j--) {
                kept.swap(j, j - 1);
            }
        }
    }

    private IOException changed(int i, String what, Throwable cause) {
        return new IOException("the source no longer matches what was planned for fragment " + i
            + " (did the file change?): " + what, cause);
    }


    @Override
    public void close() throws IOException {
        in.close();
    }
}

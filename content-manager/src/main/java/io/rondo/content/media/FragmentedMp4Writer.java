package io.rondo.content.media;

import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Stores {@link SampleTrack}s as a fragmented MP4 with one {@code moof} + {@code mdat} per round T
 * of presentation (papers/001 Section 1.1: a fragment is the data of one round's display), every
 * sample's bytes copied untouched from the source. Planning reads nothing but the sample tables it
 * is given; {@link #writeFragment} reads each round's samples from the source with a few large
 * positioned reads.
 *
 * <p><b>Which round a sample belongs to.</b> Samples are cut in decode order, at frame boundaries,
 * not only at keyframes. A sample goes to the round in which it, or any sample decoded after it, is
 * first presented (the running minimum of the presentation times from the end of the track): audio
 * goes by its own presentation time, and a reference frame decoded early travels with the frames
 * presented before it. Two refinements:
 * <ul>
 *   <li>a video sync sample whose decode or presentation time lies within half a frame of a round's
 *       start opens that round, so that the round starts at a keyframe. Encoders put keyframes
 *       every so many frames, which lands them on round starts, but with B-frames a keyframe is
 *       decoded a few frames before it is presented, and which of the two times sits on the round's
 *       start depends on the muxer: ffmpeg's progressive MP4 puts the presentation time there (its
 *       edit list shifts the B-frame delay out), its fragmented MP4 the decode time;
 *   <li>times before 0 (an edit list's priming) count as 0, and samples presented after the end of
 *       the media go to the last round.
 * </ul>
 * <p>Then every round that holds a video sync sample starts at the first of them: the frames
 * decoded before it move to the round before, which so holds up to two rounds of video. A stream
 * opened or moved to a position starts at the round holding the keyframe at or before it, and a
 * decoder must begin with that keyframe: starting at the round's first frame, a P-frame, it would
 * miss its reference.
 *
 * <p>The media lasts from 0 to the end of the track that ends last (a track's end is its last
 * presentation, or its edit's end where that is sooner); it has ceil(duration / T) rounds, the last
 * one shorter.
 *
 * <p><b>The stored file.</b> An init segment: ftyp (iso6), moov (mvhd; per track tkhd, an edts
 * where the track shifts its media time or its edit ends it before its last sample does, so the stored
 * copy lasts as long as the source, mdia with the source's sample entry and empty sample
 * tables; mvex with mehd and a trex per track). Then per round k: a moof (mfhd k + 1, a traf per
 * track with samples in the round: tfhd with default-base-is-moof, tfdt, a trun of version 1 where
 * a composition offset is negative) and one mdat holding the round's samples track by track.
 * Decode times stay the source's (a late-starting track's delay is added to them, where the source
 * had an empty edit), so presentation times are exactly the source's.
 *
 * <p><b>Keyframes.</b> A fragment's {@code keyframeNs} and {@code keyframeFirst} come from the first
 * video track (a second one, rare in files, is not looked at): the presentation time of its first
 * sync sample in the round, and whether the round's first video sample is one (always, where the
 * round holds one). A round without video samples (audio-only media, or after the video ends)
 * starts at a keyframe.
 *
 * <p><b>Memory.</b> Besides the sample tables (25 bytes a sample, {@link SampleTrack}), planning
 * keeps 4 bytes a track and a round, the init segment, and writing one buffer of the largest
 * fragment and one of {@value #SCRATCH_BYTES} bytes for coalesced reads: flat in the size of the
 * file.
 */
final class FragmentedMp4Writer implements StoredMedia {

    /** The movie timescale: mvhd, tkhd, elst and mehd count milliseconds, as ffmpeg's do. */
    static final int MOVIE_TIMESCALE = 1000;

    /** sample_depends_on = 2: a sync sample. */
    static final int SYNC_FLAGS = 0x0200_0000;
    /** sample_depends_on = 1, sample_is_non_sync_sample. */
    static final int NON_SYNC_FLAGS = 0x0101_0000;

    /** Samples this far apart in the source or nearer are read with one read (and the gap read too). */
    static final int READ_GAP_BYTES = 64 << 10;
    /** The most one read covering several samples spans; a larger sample is read on its own. */
    static final int SCRATCH_BYTES = 4 << 20;

    /** A stored file of more rounds than this (115 days of 1 s) comes from a corrupt time. */
    private static final long MAX_ROUNDS = 10_000_000;
    private static final long MAX_FRAGMENT_BYTES = Integer.MAX_VALUE - 64;

    private static final Set<String> KEPT_BRANDS =
        Set.of("isom", "iso2", "iso3", "iso4", "mp42", "avc1", "av01", "M4A ", "M4V ", "M4B ");

    /** A track as planned: its samples, where its presentation starts, and its rounds. */
    private static final class Planned {
        private final SampleTrack samples;
        private final TrackHeader header;
        /** Ticks added to every decode time: the source's initial empty edit. */
        private final long delay;
        /** The media time the stored edit list presents at 0 (B-frame delay, priming), or 0. */
        private final long mediaTime;
        private final long endNs;
        /** Whether the source's edit list ends the track before its samples do: the stored edit must too. */
        private final boolean cutShort;
        /** For round k, the first sample in it; [rounds] = the sample count. */
        private int[] roundStart;

        Planned(SampleTrack samples) throws MediaFormatException {
            this.samples = samples;
            this.header = samples.header();
            long shift = header.editShift();
            delay = Math.max(0, -shift);
            mediaTime = Math.max(0, shift);
            long end = Long.MIN_VALUE;
            for (int i = 0; i < samples.count(); i++) {
                end = Math.max(end, samples.decodeTime(i) + samples.compositionOffset(i) + samples.duration(i));
            }
            long sampleEndNs = Math.max(0, Ticks.toNs(end - shift, header.timescale(), where()));
            endNs = header.editEndNs() >= 0 ? Math.min(sampleEndNs, header.editEndNs()) : sampleEndNs;
            cutShort = endNs < sampleEndNs;
        }

        /** When sample {@code i} is presented, in ns from the start of the media (negative: before it). */
        long presentationNs(int i) throws MediaFormatException {
            return Ticks.toNs(samples.decodeTime(i) + samples.compositionOffset(i) - header.editShift(),
                header.timescale(), where());
        }

        /** When sample {@code i} is decoded, on the same timeline. */
        long decodeNs(int i) throws MediaFormatException {
            return Ticks.toNs(samples.decodeTime(i) - header.editShift(), header.timescale(), where());
        }

        String where() {
            return "track " + header.trackId();
        }
    }

    private final FileChannel source;
    private final long sourceSize;
    private final long roundNs;
    private final int rounds;
    private final Planned[] tracks;
    private final byte[] init;
    private final MediaIndex index;
    private final int largestFragment;
    private final BoxBuffer moof = new BoxBuffer(1 << 12);
    private final int[] dataOffsetAt;
    /** The mdat payload of the round whose moof {@link #moof} holds. */
    private long moofPayload;
    private ByteBuffer frame;
    private ByteBuffer scratch;
    private long[] segmentSource = new long[64];
    private int[] segmentLength = new int[64];
    private int[] segmentTarget = new int[64];
    private long[] order = new long[64];

    private FragmentedMp4Writer(FileChannel source, List<SampleTrack> samples, List<String> sourceBrands,
                                long roundNs) throws IOException {
        this.source = source;
        this.sourceSize = source.size();
        this.roundNs = roundNs;
        this.tracks = new Planned[samples.size()];
        long durationNs = 0;
        for (int t = 0; t < tracks.length; t++) {
            tracks[t] = new Planned(samples.get(t));
            durationNs = Math.max(durationNs, tracks[t].endNs);
        }
        long roundCount = Math.max(1, (durationNs + roundNs - 1) / roundNs);
        if (roundCount > MAX_ROUNDS) {
            throw MediaFormatException.corrupt("the media claims to last " + durationNs / Ticks.NS_PER_SECOND
                + " s, too long to be real");
        }
        if (roundCount > sourceSize) {
            // each round costs its own fragment headers: a few bytes of source must not become gigabytes stored
            throw MediaFormatException.corrupt("the media claims to last " + durationNs / Ticks.NS_PER_SECOND
                + " s, more rounds than its " + sourceSize + " bytes could fill");
        }
        rounds = (int) roundCount;
        dataOffsetAt = new int[tracks.length];
        for (Planned t : tracks) {
            t.roundStart = cut(t);
        }
        init = init(sourceBrands, durationNs);

        List<Fragment> fragments = new ArrayList<>(rounds);
        Planned video = null;
        for (Planned t : tracks) {
            if (video == null && t.samples.video()) {
                video = t;
            }
        }
        long offset = init.length;
        long largest = 0;
        for (int k = 0; k < rounds; k++) {
            long length = buildMoof(k);
            largest = Math.max(largest, length);
            long startNs = k * roundNs;
            long fragmentNs = k == rounds - 1 ? durationNs - startNs : roundNs;
            long keyframeNs = startNs;
            boolean keyframeFirst = true;
            if (video != null && video.roundStart[k] < video.roundStart[k + 1]) {
                keyframeNs = Fragment.NO_KEYFRAME;
                keyframeFirst = video.samples.sync(video.roundStart[k]);
                for (int i = video.roundStart[k]; i < video.roundStart[k + 1]; i++) {
                    if (video.samples.sync(i)) {
                        keyframeNs = Math.max(0, video.presentationNs(i));
                        break;
                    }
                }
            }
            fragments.add(Fragment.unplaced(startNs, fragmentNs, offset, length, keyframeNs, keyframeFirst));
            offset += length;
        }
        if (largest > MAX_FRAGMENT_BYTES) {
            throw MediaFormatException.unsupported("a round of the media holds " + largest + " bytes, more than the "
                + MAX_FRAGMENT_BYTES + " Rondo stores as one fragment");
        }
        largestFragment = (int) largest;

        boolean hasVideo = video != null;
        StringJoiner codecs = new StringJoiner(", ");
        for (Planned t : tracks) {
            codecs.add(SampleEntries.describe(t.header).codecs());
        }
        index = new MediaIndex("mp4", hasVideo ? "video/mp4" : "audio/mp4", codecs.toString(), durationNs,
            new ByteRange(0, init.length), fragments);
    }

    /**
     * Plans the stored copy of {@code source}'s samples: one fragment per round of {@code roundNs}.
     * The source stays open, to be read by {@link #writeFragment}, until {@link #close}.
     *
     * @param tracks       the tracks to store, in order, each with samples (their sample entries are checked
     *                     with {@link Mp4Remuxer#unstreamable} first)
     * @param sourceBrands the source's ftyp brands, kept in the stored ftyp where they still hold
     */
    static FragmentedMp4Writer plan(Path source, List<SampleTrack> tracks, List<String> sourceBrands, long roundNs)
        throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        if (tracks.isEmpty() || tracks.stream().anyMatch(t -> t.count() == 0)) {
            throw new IllegalArgumentException("a stored copy needs tracks, each with samples, was " + tracks.size()
                + " tracks");
        }
        return plan(FileChannel.open(source, StandardOpenOption.READ), tracks, sourceBrands, roundNs);
    }

    /**
     * {@link #plan(Path, List, List, long)} of samples in {@code source}, an open file (a remuxer's
     * file of samples it rewrote), which this writer closes: at {@link #close}, or now if planning fails.
     */
    static FragmentedMp4Writer plan(FileChannel source, List<SampleTrack> tracks, List<String> sourceBrands,
                                    long roundNs) throws IOException {
        try {
            return new FragmentedMp4Writer(source, tracks, sourceBrands, roundNs);
        } catch (IOException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    @Override
    public MediaIndex index() {
        return index;
    }

    @Override
    public void writeInit(WritableByteChannel out) throws IOException {
        if (source.size() != sourceSize) {
            throw new IOException("the source was " + sourceSize + " bytes when it was planned and is "
                + source.size() + " now: it changed meanwhile");
        }
        writeFully(out, ByteBuffer.wrap(init));
    }

    @Override
    public void writeFragment(int i, WritableByteChannel out) throws IOException {
        if (i < 0 || i >= rounds) {
            throw new IndexOutOfBoundsException("fragment " + i + " of " + rounds);
        }
        long length = buildMoof(i);
        if (frame == null) {
            frame = ByteBuffer.allocateDirect(largestFragment);
        }
        frame.clear();
        frame.put(moof.view());
        putMdatHeader(frame, moofPayload);
        fill(i, frame.position());
        frame.position(0).limit((int) length);
        writeFully(out, frame);
    }

    @Override
    public void close() throws IOException {
        source.close();
    }

    /** The first sample of each round, [rounds] = the sample count: see the class comment. */
    private int[] cut(Planned t) throws MediaFormatException {
        SampleTrack s = t.samples;
        int n = s.count();
        int[] counts = new int[rounds + 1];
        long earliest = Long.MAX_VALUE;
        for (int i = n - 1; i >= 0; i--) {
            earliest = Math.min(earliest, t.presentationNs(i));
            counts[round(earliest)]++;
        }
        int[] start = new int[rounds + 1];
        for (int k = 1; k <= rounds; k++) {
            start[k] = start[k - 1] + counts[k - 1];
        }
        if (s.video()) {
            for (int i = 0; i < n; i++) {
                if (s.sync(i)) {
                    snapToKeyframe(t, start, i);
                }
            }
            openAtKeyframes(s, start);
        }
        return start;
    }

    /**
     * Opens every round that holds a sync sample at the first of them: the samples decoded before
     * it go with the round before, so a stream that starts at the round sends its keyframe first.
     */
    private void openAtKeyframes(SampleTrack s, int[] start) {
        for (int k = 1; k < rounds; k++) {
            int i = start[k];
            while (i < start[k + 1] && !s.sync(i)) {
                i++;
            }
            if (i < start[k + 1]) {
                start[k] = i;
            }
        }
    }

    /** Opens a round at sync sample {@code i} if its decode or presentation time is at the round's start. */
    private void snapToKeyframe(Planned t, int[] start, int i) throws MediaFormatException {
        long decodeNs = t.decodeNs(i);
        long presentationNs = t.presentationNs(i);
        long halfFrameNs = Ticks.toNs(t.samples.duration(i), t.header.timescale(), t.where()) / 2;
        long from = Math.min(decodeNs, presentationNs) - halfFrameNs;
        long to = Math.max(decodeNs, presentationNs) + halfFrameNs;
        long k = Math.max(1, Math.floorDiv(from + roundNs - 1, roundNs));
        if (k >= rounds || k * roundNs > to || start[(int) k] == i) {
            return;
        }
        start[(int) k] = i;
        for (int after = (int) k + 1; after < rounds && start[after] < i; after++) {
            start[after] = i;
        }
        for (int before = (int) k - 1; before >= 1 && start[before] > i; before--) {
            start[before] = i;
        }
    }

    private int round(long ns) {
        return ns <= 0 ? 0 : (int) Math.min(rounds - 1, ns / roundNs);
    }

    /** Builds round k's moof into {@link #moof}, its data offsets set; returns the fragment's length. */
    private long buildMoof(int k) throws MediaFormatException {
        BoxBuffer b = moof;
        b.clear();
        int moofAt = b.begin("moof");
        int mfhd = b.beginFull("mfhd", 0, 0);
        b.u32(k + 1L);
        b.end(mfhd);
        long payload = 0;
        for (int t = 0; t < tracks.length; t++) {
            Planned p = tracks[t];
            int from = p.roundStart[k];
            int to = p.roundStart[k + 1];
            dataOffsetAt[t] = -1;
            if (from < to) {
                dataOffsetAt[t] = traf(b, p, from, to);
                for (int i = from; i < to; i++) {
                    payload += p.samples.size(i);
                }
            }
        }
        b.end(moofAt);
        moofPayload = payload;
        int header = mdatHeaderLength(payload);
        long data = b.position() + header;
        for (int t = 0; t < tracks.length; t++) {
            if (dataOffsetAt[t] >= 0) {
                b.putU32(dataOffsetAt[t], data);
                Planned p = tracks[t];
                for (int i = p.roundStart[k]; i < p.roundStart[k + 1]; i++) {
                    data += p.samples.size(i);
                }
            }
        }
        return data;
    }

    /** Writes a traf of samples [from, to); returns where its trun's data offset is to be written. */
    private static int traf(BoxBuffer b, Planned p, int from, int to) throws MediaFormatException {
        SampleTrack s = p.samples;
        long firstDuration = s.duration(from);
        int firstFlags = flags(s, from);
        int restFlags = to - from > 1 ? flags(s, from + 1) : firstFlags;
        boolean sameDuration = true;
        boolean sameRestFlags = true;
        boolean compositionOffsets = false;
        boolean negative = false;
        for (int i = from; i < to; i++) {
            long duration = s.duration(i);
            if (duration > 0xFFFF_FFFFL) {
                throw MediaFormatException.corrupt(p.where() + " has a sample of " + duration + " ticks at "
                    + s.decodeTime(i) + " ticks");
            }
            sameDuration &= duration == firstDuration;
            sameRestFlags &= i == from || flags(s, i) == restFlags;
            compositionOffsets |= s.compositionOffset(i) != 0;
            negative |= s.compositionOffset(i) < 0;
        }
        boolean sameFlags = sameRestFlags && firstFlags == restFlags;
        boolean defaultFlags = sameRestFlags;
        boolean firstSampleFlags = sameRestFlags && !sameFlags;

        int traf = b.begin("traf");
        int tfhd = b.beginFull("tfhd", 0, 0x02_0000 | (sameDuration ? 0x08 : 0) | (defaultFlags ? 0x20 : 0));
        b.u32(p.header.trackId());
        if (sameDuration) {
            b.u32(firstDuration);
        }
        if (defaultFlags) {
            b.u32(restFlags);
        }
        b.end(tfhd);
        int tfdt = b.beginFull("tfdt", 1, 0);
        b.u64(s.decodeTime(from) + p.delay);
        b.end(tfdt);
        int trunFlags = 0x001 | (firstSampleFlags ? 0x004 : 0) | (sameDuration ? 0 : 0x100) | 0x200
            | (defaultFlags ? 0 : 0x400) | (compositionOffsets ? 0x800 : 0);
        int trun = b.beginFull("trun", negative ? 1 : 0, trunFlags);
        b.u32(to - from);
        int dataOffset = b.position();
        b.u32(0);
        if (firstSampleFlags) {
            b.u32(firstFlags);
        }
        for (int i = from; i < to; i++) {
            if (!sameDuration) {
                b.u32(s.duration(i));
            }
            b.u32(s.size(i));
            if (!defaultFlags) {
                b.u32(flags(s, i));
            }
            if (compositionOffsets) {
                b.u32(s.compositionOffset(i));
            }
        }
        b.end(trun);
        b.end(traf);
        return dataOffset;
    }

    private static int flags(SampleTrack s, int i) {
        return s.sync(i) ? SYNC_FLAGS : NON_SYNC_FLAGS;
    }

    private static int mdatHeaderLength(long payload) {
        return payload + 8 > 0xFFFF_FFFFL ? 16 : 8;
    }

    private static void putMdatHeader(ByteBuffer buf, long payload) {
        if (mdatHeaderLength(payload) == 8) {
            buf.putInt((int) (payload + 8));
            buf.put(new byte[] {'m', 'd', 'a', 't'});
        } else {
            buf.putInt(1);
            buf.put(new byte[] {'m', 'd', 'a', 't'});
            buf.putLong(payload + 16);
        }
    }

    /**
     * Copies round k's samples into {@link #frame} from {@code at}, track by track in decode order.
     * Samples next to each other in both the source and the fragment are one segment; segments near
     * each other in the source (an interleaved file) are read together into the scratch buffer and
     * copied out, a segment on its own is read straight into place.
     */
    private void fill(int k, int at) throws IOException {
        int segments = 0;
        int target = at;
        for (Planned p : tracks) {
            SampleTrack s = p.samples;
            for (int i = p.roundStart[k]; i < p.roundStart[k + 1]; i++) {
                long offset = s.offset(i);
                int size = s.size(i);
                if (segments > 0 && segmentSource[segments - 1] + segmentLength[segments - 1] == offset) {
                    segmentLength[segments - 1] += size;
                } else {
                    if (segments == segmentSource.length) {
                        growSegments();
                    }
                    segmentSource[segments] = offset;
                    segmentLength[segments] = size;
                    segmentTarget[segments] = target;
                    segments++;
                }
                target += size;
            }
        }
        sortBySource(segments);
        int j = 0;
        while (j < segments) {
            int first = segment(j);
            long start = segmentSource[first];
            long end = start + segmentLength[first];
            int last = j;
            while (last + 1 < segments) {
                int next = segment(last + 1);
                long nextEnd = segmentSource[next] + segmentLength[next];
                if (segmentSource[next] > end + READ_GAP_BYTES || Math.max(end, nextEnd) - start > SCRATCH_BYTES) {
                    break;
                }
                end = Math.max(end, nextEnd);
                last++;
            }
            if (last == j) {
                readFully(frame.slice(segmentTarget[first], segmentLength[first]), start);
            } else {
                if (scratch == null) {
                    scratch = ByteBuffer.allocateDirect(SCRATCH_BYTES);
                }
                scratch.clear().limit((int) (end - start));
                readFully(scratch, start);
                for (int m = j; m <= last; m++) {
                    int seg = segment(m);
                    frame.put(segmentTarget[seg], scratch, (int) (segmentSource[seg] - start), segmentLength[seg]);
                }
            }
            j = last + 1;
        }
    }

    /** The segment at sorted position {@code j}. */
    private int segment(int j) {
        return (int) (order[j] & 0xF_FFFF);
    }

    /** Orders the segments by source offset: keys of offset (43 bits) and segment (20 bits), sorted. */
    private void sortBySource(int segments) {
        if (order.length < segments) {
            order = new long[segmentSource.length];
        }
        boolean packable = segments <= 0xF_FFFF;
        for (int j = 0; j < segments; j++) {
            packable &= segmentSource[j] < 1L << 43;
            order[j] = segmentSource[j] << 20 | j;
        }
        if (packable) {
            Arrays.sort(order, 0, segments);
        } else {
            for (int j = 0; j < segments; j++) {
                order[j] = j;
            }
        }
    }

    private void growSegments() {
        int capacity = segmentSource.length * 2;
        segmentSource = Arrays.copyOf(segmentSource, capacity);
        segmentLength = Arrays.copyOf(segmentLength, capacity);
        segmentTarget = Arrays.copyOf(segmentTarget, capacity);
    }

    private void readFully(ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int r = source.read(dst, at);
            if (r < 0) {
                throw new EOFException("the source is " + source.size() + " bytes, too short for the samples planned at"
                    + " byte " + position + ": it changed after it was planned");
            }
            at += r;
        }
    }

    private static void writeFully(WritableByteChannel out, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            out.write(buf);
        }
    }

    /** The init segment: ftyp and moov. */
    private byte[] init(List<String> sourceBrands, long durationNs) throws MediaFormatException {
        BoxBuffer b = new BoxBuffer(1 << 12);
        Set<String> brands = new LinkedHashSet<>(List.of("iso6", "iso5", "mp41"));
        for (String brand : sourceBrands) {
            if (KEPT_BRANDS.contains(brand)) {
                brands.add(brand);
            }
        }
        int ftyp = b.begin("ftyp");
        b.fourcc("iso6");
        b.u32(0);
        for (String brand : brands) {
            b.fourcc(brand);
        }
        b.end(ftyp);

        long durationMs = Ticks.rescaleUp(durationNs, Ticks.NS_PER_SECOND, MOVIE_TIMESCALE, "the media");
        int moov = b.begin("moov");
        boolean wide = durationMs > 0xFFFF_FFFFL;
        int mvhd = b.beginFull("mvhd", wide ? 1 : 0, 0);
        timesAndDuration(b, wide, MOVIE_TIMESCALE, durationMs);
        b.u32(0x0001_0000);
        b.u16(0x0100);
        b.zeros(10);
        matrix(b, TrackHeader.IDENTITY);
        b.zeros(24);
        long nextTrackId = 1;
        for (Planned t : tracks) {
            nextTrackId = Math.max(nextTrackId, t.header.trackId() + 1);
        }
        b.u32(Math.min(nextTrackId, 0xFFFF_FFFFL));
        b.end(mvhd);
        for (Planned t : tracks) {
            trak(b, t);
        }
        int mvex = b.begin("mvex");
        int mehd = b.beginFull("mehd", wide ? 1 : 0, 0);
        if (wide) {
            b.u64(durationMs);
        } else {
            b.u32(durationMs);
        }
        b.end(mehd);
        for (Planned t : tracks) {
            int trex = b.beginFull("trex", 0, 0);
            b.u32(t.header.trackId());
            b.u32(1);
            b.u32(0);
            b.u32(0);
            b.u32(0);
            b.end(trex);
        }
        b.end(mvex);
        b.end(moov);
        return b.toArray();
    }

    private static void trak(BoxBuffer b, Planned t) throws MediaFormatException {
        TrackHeader h = t.header;
        boolean video = t.samples.video();
        long durationMs = Ticks.rescaleUp(t.endNs, Ticks.NS_PER_SECOND, MOVIE_TIMESCALE, t.where());
        boolean wide = durationMs > 0xFFFF_FFFFL || t.mediaTime > Integer.MAX_VALUE;
        int trak = b.begin("trak");
        int tkhd = b.beginFull("tkhd", wide ? 1 : 0, h.flags() & 0xFF_FFFF);
        if (wide) {
            b.u64(0);
            b.u64(0);
            b.u32(h.trackId());
            b.u32(0);
            b.u64(durationMs);
        } else {
            b.u32(0);
            b.u32(0);
            b.u32(h.trackId());
            b.u32(0);
            b.u32(durationMs);
        }
        b.zeros(8);
        b.u16(0);
        b.u16(h.alternateGroup());
        b.u16(h.volume());
        b.u16(0);
        matrix(b, h.matrix());
        b.u32(h.width());
        b.u32(h.height());
        b.end(tkhd);
        if (t.mediaTime > 0 || t.cutShort) {
            int edts = b.begin("edts");
            int elst = b.beginFull("elst", wide ? 1 : 0, 0);
            b.u32(1);
            if (wide) {
                b.u64(durationMs);
                b.u64(t.mediaTime);
            } else {
                b.u32(durationMs);
                b.u32(t.mediaTime);
            }
            b.u16(1);
            b.u16(0);
            b.end(elst);
            b.end(edts);
        }
        int mdia = b.begin("mdia");
        int mdhd = b.beginFull("mdhd", 0, 0);
        timesAndDuration(b, false, h.timescale(), 0);
        b.u16(h.language());
        b.u16(0);
        b.end(mdhd);
        int hdlr = b.beginFull("hdlr", 0, 0);
        b.u32(0);
        b.fourcc(h.handler());
        b.zeros(12);
        b.bytes((video ? "VideoHandler\0" : "SoundHandler\0").getBytes(StandardCharsets.US_ASCII));
        b.end(hdlr);
        int minf = b.begin("minf");
        if (video) {
            int vmhd = b.beginFull("vmhd", 0, 1);
            b.zeros(8);
            b.end(vmhd);
        } else {
            int smhd = b.beginFull("smhd", 0, 0);
            b.zeros(4);
            b.end(smhd);
        }
        int dinf = b.begin("dinf");
        int dref = b.beginFull("dref", 0, 0);
        b.u32(1);
        int url = b.beginFull("url ", 0, 1);
        b.end(url);
        b.end(dref);
        b.end(dinf);
        int stbl = b.begin("stbl");
        int stsd = b.beginFull("stsd", 0, 0);
        b.u32(1);
        b.bytes(h.sampleEntry());
        b.end(stsd);
        for (String empty : List.of("stts", "stsc", "stsz", "stco")) {
            int box = b.beginFull(empty, 0, 0);
            if (empty.equals("stsz")) {
                b.u32(0);
            }
            b.u32(0);
            b.end(box);
        }
        b.end(stbl);
        b.end(minf);
        b.end(mdia);
        b.end(trak);
    }

    /** The creation and modification times (0: unknown), the timescale and the duration of mvhd or mdhd. */
    private static void timesAndDuration(BoxBuffer b, boolean wide, long timescale, long duration) {
        if (wide) {
            b.u64(0);
            b.u64(0);
            b.u32(timescale);
            b.u64(duration);
        } else {
            b.u32(0);
            b.u32(0);
            b.u32(timescale);
            b.u32(duration);
        }
    }

    private static void matrix(BoxBuffer b, int[] matrix) {
        for (int v : matrix) {
            b.u32(v & 0xFFFF_FFFFL);
        }
    }
}

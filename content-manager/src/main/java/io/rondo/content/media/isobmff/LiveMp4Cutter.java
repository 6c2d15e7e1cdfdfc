package io.rondo.content.media.isobmff;

import io.rondo.content.media.LiveCutter;
import io.rondo.content.media.LiveFragment;
import io.rondo.content.media.LiveHeader;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.isobmff.IsoBoxes.Box;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * Cuts a live fragmented MP4 (what {@code ffmpeg -f mp4 -movflags +frag_keyframe+empty_moov
 * +default_base_moof -} writes, and its {@code delay_moov} and {@code separate_moof} variants; any
 * length of the source's own fragments) into one {@code moof} + {@code mdat} per round, by the rules
 * ingest stores files with ({@link PlannedTrack}), each sample's bytes copied untouched.
 *
 * <p><b>Header.</b> The source's {@code ftyp} and {@code moov}, as they came: the fragments keep each
 * track's decode times but for the recording's offset, so its edit lists still hold. A second
 * {@code moov} (a publisher that restarted its muxer) must declare the same tracks.
 *
 * <p><b>Timeline.</b> The recording's 0 is the earliest presentation in the first {@code moof}, or
 * later where a track would otherwise be decoded before 0 (B-frames without an edit list): every
 * track's decode times are moved by the same offset, in ns, converted to its timescale. A track
 * whose next {@code moof} goes back in time, or forward by more than the jump limit, starts a new
 * timeline: the offset changes so that what follows starts at the round after the last one holding
 * samples (no earlier than each jumping track's last decode), and the tracks that jump with it
 * follow it.
 *
 * <p><b>How late.</b> Round k is cut as soon as every track has samples decoded past its end (plus
 * the B-frame reorder seen, and half a frame for video), and for video once round k + 1's first
 * keyframe arrived or round k + 1 is complete: one round after round k's bytes at most, plus the
 * source's own fragment, which the cutter sees only whole (ffmpeg writes one per GOP). A track yet
 * to send its first sample holds the others back as long as a track may run ahead of another (its
 * samples may come in a {@code moof} of its own), then no more.
 *
 * <p><b>Memory.</b> One box at a time ({@value LiveBoxReader#MAX_BOX_BYTES} bytes at most) and the
 * samples not yet cut: a track ahead of the slowest by more than {@value #MAX_AHEAD_ROUNDS} rounds
 * plus the source's longest fragment, or more than {@value #MAX_HELD_BYTES} bytes held, fails.
 */
public final class LiveMp4Cutter implements LiveCutter {

    /** How many rounds beyond the source's longest fragment one track may run ahead of another. */
    static final int MAX_AHEAD_ROUNDS = 4;
    /** The most bytes of samples held before they are cut. */
    static final long MAX_HELD_BYTES = 256L << 20;

    private final long roundNs;
    private final long maxJumpNs;
    private final LiveBoxReader reader = new LiveBoxReader();
    private final BoxBuffer moof = new BoxBuffer(1 << 12);
    private Mp4Demuxer demuxer;
    private byte[] ftyp;
    private LiveHeader header;
    private List<TrackHeader> headers;
    private LiveTrack[] tracks;
    /** The samples of the last moof, until its mdat arrives. */
    private List<SampleTrack> pending;
    private boolean originSet;
    private long offsetNs;
    private int timeline;
    private int discontinuities;
    private long nextRound;
    private long sequence;
    private long longestMoofNs;
    private MediaFormatException failed;
    private boolean finished;

    /**
     * A cutter into rounds of {@code roundNs}, for which a timestamp jumping forward by more than
     * {@code maxJumpNs} is a discontinuity.
     */
    public LiveMp4Cutter(long roundNs, long maxJumpNs) {
        if (roundNs <= 0 || maxJumpNs <= 0) {
            throw new IllegalArgumentException("the round and the jump limit must be positive, were " + roundNs
                + " ns and " + maxJumpNs + " ns");
        }
        this.roundNs = roundNs;
        this.maxJumpNs = maxJumpNs;
    }

    /**
     * {@inheritDoc}
     *
     * <p>After a {@link MediaFormatException}, every call fails with it again; the fragments the
     * failing call would have completed before the bad bytes are lost with it.
     *
     * @throws IllegalStateException after {@link #finish()}
     */
    @Override
    public List<LiveFragment> feed(ByteBuffer bytes) throws MediaFormatException {
        if (finished) {
            throw new IllegalStateException("the publisher finished: the cutter takes no more bytes");
        }
        checkNotFailed();
        List<LiveFragment> ready = new ArrayList<>();
        try {
            reader.feed(bytes, (box, data) -> box(box, data, ready));
        } catch (MediaFormatException e) {
            failed = e;
            throw e;
        }
        return ready;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A box cut off by the end, or a {@code moof} whose {@code mdat} never came, is dropped.
     */
    @Override
    public List<LiveFragment> finish() throws MediaFormatException {
        checkNotFailed();
        if (finished) {
            return List.of();
        }
        finished = true;
        List<LiveFragment> ready = new ArrayList<>();
        if (tracks != null) {
            emit(ready, true);
        }
        return ready;
    }

    @Override
    public LiveHeader header() {
        return header;
    }

    @Override
    public int discontinuities() {
        return discontinuities;
    }

    private void checkNotFailed() throws MediaFormatException {
        if (failed != null) {
            throw new MediaFormatException(failed.getMessage());
        }
    }

    private void box(Box box, ByteBuffer data, List<LiveFragment> ready) throws MediaFormatException {
        switch (box.type()) {
            case "ftyp" -> {
                if (ftyp == null) {
                    ftyp = whole(box, data);
                }
            }
            case "moov" -> readMoov(box, data);
            case "moof" -> {
                if (demuxer == null) {
                    throw MediaFormatException.unsupported(box.describe() + " comes before any moov: the publisher"
                        + " must send the initialization first (ffmpeg -movflags +empty_moov)");
                }
                if (pending != null) {
                    throw MediaFormatException.unsupported(box.describe() + " follows a moof without its mdat");
                }
                demuxer.readMoof(box, data);
                pending = demuxer.takeSamples();
            }
            case "mdat" -> {
                if (pending != null) {
                    List<SampleTrack> samples = pending;
                    pending = null;
                    hold(samples, data.array(), box.dataOffset());
                    emit(ready, false);
                    checkHeld();
                }
            }
            default -> throw new IllegalStateException("the reader keeps no " + box.type());
        }
    }

    private void readMoov(Box box, ByteBuffer data) throws MediaFormatException {
        Mp4Demuxer read = Mp4Demuxer.ofBoxes();
        read.readMoov(box, data.duplicate());
        List<SampleTrack> declared = read.takeSamples();
        List<TrackHeader> declaredHeaders = new ArrayList<>();
        for (SampleTrack s : declared) {
            declaredHeaders.add(s.header());
            if (s.count() > 0) {
                throw MediaFormatException.unsupported(box.describe() + " holds samples: this is a progressive MP4,"
                    + " not a live one (ffmpeg -f mp4 -movflags +frag_keyframe+empty_moov+default_base_moof)");
            }
        }
        if (demuxer != null) {
            if (!sameTracks(headers, declaredHeaders)) {
                throw MediaFormatException.unsupported(box.describe() + " declares other tracks than the first moov:"
                    + " a live recording keeps its tracks and codecs; start a new one");
            }
            return;
        }
        if (declared.isEmpty()) {
            throw MediaFormatException.unsupported(box.describe() + " declares no audio or video track");
        }
        String unstreamable = Mp4Remuxer.unstreamable(declared);
        if (unstreamable != null) {
            throw MediaFormatException.unsupported(unstreamable);
        }
        demuxer = read;
        headers = declaredHeaders;
        tracks = new LiveTrack[declared.size()];
        boolean video = false;
        StringJoiner codecs = new StringJoiner(", ");
        for (int t = 0; t < tracks.length; t++) {
            tracks[t] = new LiveTrack(headers.get(t));
            video |= tracks[t].video;
            codecs.add(SampleEntries.describe(headers.get(t)).codecs());
        }
        byte[] moov = whole(box, data);
        byte[] init = ftyp == null ? moov : Arrays.copyOf(ftyp, ftyp.length + moov.length);
        if (ftyp != null) {
            System.arraycopy(moov, 0, init, ftyp.length, moov.length);
        }
        header = new LiveHeader("mp4", video ? "video/mp4" : "audio/mp4", codecs.toString(), init);
    }

    private static boolean sameTracks(List<TrackHeader> a, List<TrackHeader> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int t = 0; t < a.size(); t++) {
            TrackHeader x = a.get(t);
            TrackHeader y = b.get(t);
            if (x.trackId() != y.trackId() || !x.handler().equals(y.handler()) || x.timescale() != y.timescale()
                || x.editShift() != y.editShift() || !Arrays.equals(x.sampleEntry(), y.sampleEntry())) {
                return false;
            }
        }
        return true;
    }

    /** A box as it came: header and data. */
    private static byte[] whole(Box box, ByteBuffer data) {
        ByteBuffer b = ByteBuffer.allocate(8 + data.remaining());
        b.putInt(8 + data.remaining());
        b.put(box.type().getBytes(StandardCharsets.US_ASCII));
        b.put(data.duplicate());
        return b.array();
    }

    /** Puts a moof's samples on the recording's timeline and holds them, their bytes in its mdat. */
    private void hold(List<SampleTrack> samples, byte[] mdat, long mdatData) throws MediaFormatException {
        onTimeline(samples);
        for (int t = 0; t < tracks.length; t++) {
            SampleTrack s = samples.get(t);
            for (int i = 0; i < s.count(); i++) {
                tracks[t].hold(s, i, mdat, mdatData);
            }
            if (s.count() > 0) {
                long spanNs = Ticks.toNs(s.decodeEnd() - s.decodeTime(0), s.header().timescale(), "the moof");
                longestMoofNs = Math.max(longestMoofNs, spanNs);
            }
        }
    }

    /** Sets each track's offset for a moof's samples: the recording's, or a new one where they jump. */
    private void onTimeline(List<SampleTrack> samples) throws MediaFormatException {
        if (!originSet) {
            long startNs = Long.MAX_VALUE;
            for (SampleTrack s : samples) {
                startNs = Math.min(startNs, startNs(s));
            }
            if (startNs == Long.MAX_VALUE) {
                return;
            }
            originSet = true;
            offsetNs = -startNs;
        }
        boolean[] jumps = new boolean[tracks.length];
        boolean newTimeline = false;
        for (int t = 0; t < tracks.length; t++) {
            LiveTrack track = tracks[t];
            SampleTrack s = samples.get(t);
            if (s.count() == 0) {
                continue;
            }
            long gap = s.decodeTime(0) - track.sourceDecodeEnd;
            jumps[t] = !track.started || gap < 0 || Ticks.toNs(gap, track.header.timescale(), "the moof") > maxJumpNs;
            newTimeline |= track.started && track.timeline == timeline && jumps[t];
        }
        if (newTimeline) {
            long lastEndNs = 0;
            for (LiveTrack track : tracks) {
                lastEndNs = Math.max(lastEndNs, track.presentationEndNs);
            }
            long round = Math.max(nextRound, Math.floorDiv(lastEndNs + roundNs - 1, roundNs));
            long next = Long.MIN_VALUE;
            for (int t = 0; t < tracks.length; t++) {
                if (jumps[t] && tracks[t].started) {
                    SampleTrack s = samples.get(t);
                    long ts = s.header().timescale();
                    next = Math.max(next, round * roundNs - startNs(s));
                    next = Math.max(next, Ticks.toNs(tracks[t].offset + tracks[t].sourceDecodeEnd - s.decodeTime(0),
                        ts, "the moof"));
                }
            }
            offsetNs = next;
            timeline++;
            discontinuities++;
        }
        for (int t = 0; t < tracks.length; t++) {
            if (jumps[t]) {
                tracks[t].timeline = timeline;
                tracks[t].offset = Ticks.rescale(offsetNs, Ticks.NS_PER_SECOND, tracks[t].header.timescale(),
                    "the recording's offset");
            }
        }
    }

    /**
     * Where the samples of {@code s} start in ns, before any offset: their earliest presentation, or
     * their first decode if that is earlier (a decode time must not go below 0).
     */
    private static long startNs(SampleTrack s) throws MediaFormatException {
        TrackHeader h = s.header();
        long start = Long.MAX_VALUE;
        for (int i = 0; i < s.count(); i++) {
            start = Math.min(start, Ticks.toNs(s.decodeTime(i) + s.compositionOffset(i) - h.editShift(),
                h.timescale(), "track " + h.trackId()));
        }
        return s.count() == 0 ? start : Math.min(start, Ticks.toNs(s.decodeTime(0), h.timescale(), "the moof"));
    }

    /** Cuts every round that the samples held decide (all of them, once {@code finishing}). */
    private void emit(List<LiveFragment> ready, boolean finishing) throws MediaFormatException {
        int[] cuts = new int[tracks.length];
        while (Arrays.stream(tracks).anyMatch(t -> !t.isEmpty())) {
            long k = nextRound;
            int total = 0;
            boolean absentOnes = finishing || aheadNs(k) > MAX_AHEAD_ROUNDS * roundNs + longestMoofNs;
            for (int t = 0; t < tracks.length; t++) {
                cuts[t] = tracks[t].started ? tracks[t].cut(k, roundNs, finishing) : 0;
                if (cuts[t] == LiveTrack.UNDECIDED || !tracks[t].started && !absentOnes) {
                    return;
                }
                total += cuts[t];
            }
            if (total == 0) {
                long earliest = Long.MAX_VALUE;
                for (LiveTrack t : tracks) {
                    earliest = Math.min(earliest, t.earliestHeldNs());
                }
                nextRound = Math.max(k + 1, Math.floorDiv(earliest, roundNs));
                continue;
            }
            ready.add(fragment(k, cuts, finishing));
            nextRound = k + 1;
        }
    }

    /**
     * How far past round k's start the tracks that started have sent samples: a track yet to send
     * one holds the others back until this outgrows what a track may run ahead of another.
     */
    private long aheadNs(long k) throws MediaFormatException {
        long ahead = 0;
        for (LiveTrack t : tracks) {
            ahead = t.started ? Math.max(ahead, t.futureNs() - k * roundNs) : ahead;
        }
        return ahead;
    }

    /** Takes round k's samples, the first {@code cuts[t]} held of each track, as one moof + mdat. */
    private LiveFragment fragment(long k, int[] cuts, boolean finishing) throws MediaFormatException {
        long startNs = k * roundNs;
        long endNs = startNs;
        long payload = 0;
        int video = -1;
        for (int t = 0; t < tracks.length; t++) {
            endNs = Math.max(endNs, tracks[t].endNs(cuts[t]));
            payload += tracks[t].bytes(cuts[t]);
            video = video < 0 && tracks[t].video ? t : video;
        }
        long keyframeNs = startNs;
        boolean keyframeFirst = true;
        if (video >= 0 && cuts[video] > 0) {
            keyframeFirst = tracks[video].syncFirst();
            keyframeNs = tracks[video].keyframeNs(cuts[video]);
        }
        byte[] samples = new byte[(int) payload];
        BoxBuffer b = moof;
        b.clear();
        int moofAt = b.begin("moof");
        int mfhd = b.beginFull("mfhd", 0, 0);
        b.u32(++sequence);
        b.end(mfhd);
        int[] dataOffsetAt = new int[tracks.length];
        int[] dataAt = new int[tracks.length];
        int at = 0;
        for (int t = 0; t < tracks.length; t++) {
            if (cuts[t] > 0) {
                dataAt[t] = at;
                int length = (int) tracks[t].bytes(cuts[t]);
                SampleTrack s = tracks[t].take(cuts[t], samples, at);
                dataOffsetAt[t] = FragmentBoxes.traf(b, s, 0, 0, s.count());
                at += length;
            }
        }
        b.end(moofAt);
        int mdatAt = b.position();
        for (int t = 0; t < tracks.length; t++) {
            if (cuts[t] > 0) {
                b.putU32(dataOffsetAt[t], mdatAt + 8L + dataAt[t]);
            }
        }
        ByteBuffer bytes = ByteBuffer.allocate(mdatAt + 8 + samples.length);
        bytes.put(b.view()).putInt(8 + samples.length).put("mdat".getBytes(StandardCharsets.US_ASCII)).put(samples);
        boolean last = finishing && Arrays.stream(tracks).allMatch(LiveTrack::isEmpty);
        return new LiveFragment(k, startNs, last ? endNs - startNs : roundNs, bytes.array(), keyframeNs,
            keyframeFirst);
    }

    /** Fails where the samples held outgrow what a recording may hold: a track stalled, or a flood. */
    private void checkHeld() throws MediaFormatException {
        long held = 0;
        LiveTrack behind = null;
        LiveTrack ahead = null;
        for (LiveTrack t : tracks) {
            held += t.heldBytes();
            if (t.started && (behind == null || t.futureNs() < behind.futureNs())) {
                behind = t;
            }
            if (t.started && (ahead == null || t.futureNs() > ahead.futureNs())) {
                ahead = t;
            }
        }
        if (held > MAX_HELD_BYTES) {
            throw MediaFormatException.unsupported("the publisher sent " + held + " bytes of samples that round "
                + nextRound + " cannot be cut without, more than the " + MAX_HELD_BYTES + " a recording holds");
        }
        if (behind != null && ahead.futureNs() - behind.futureNs() > MAX_AHEAD_ROUNDS * roundNs + longestMoofNs) {
            throw MediaFormatException.unsupported("track " + behind.header.trackId() + " has sent nothing after "
                + Ticks.seconds(behind.futureNs()) + " while track " + ahead.header.trackId() + " reached "
                + Ticks.seconds(ahead.futureNs()) + ": every track must go on for its rounds to be cut");
        }
    }
}

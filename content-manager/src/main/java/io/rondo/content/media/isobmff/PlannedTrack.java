package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;

/**
 * A track as {@link FragmentedMp4Writer} plans it: its samples, where its presentation starts and
 * ends on the media's timeline, and the first sample of each round.
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
 */
final class PlannedTrack {

    final SampleTrack samples;
    final TrackHeader header;
    /** Ticks added to every decode time: the source's initial empty edit. */
    final long delay;
    /** The media time the stored edit list presents at 0 (B-frame delay, priming), or 0. */
    final long mediaTime;
    /** When its presentation ends, in ns from the start of the media. */
    final long endNs;
    /** Whether the source's edit list ends the track before its samples do: the stored edit must too. */
    final boolean cutShort;
    /** For round k, the first sample in it; [rounds] = the sample count. */
    private int[] roundStart;

    PlannedTrack(SampleTrack samples) throws MediaFormatException {
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

    /** The track, for messages. */
    String where() {
        return "track " + header.trackId();
    }

    /** The first sample of round {@code k}; of round {@code rounds}, the sample count. */
    int roundStart(int k) {
        return roundStart[k];
    }

    /** Cuts the samples into {@code rounds} rounds of {@code roundNs}: see the class comment. */
    void cut(int rounds, long roundNs) throws MediaFormatException {
        SampleTrack s = samples;
        int n = s.count();
        int[] counts = new int[rounds + 1];
        long earliest = Long.MAX_VALUE;
        for (int i = n - 1; i >= 0; i--) {
            earliest = Math.min(earliest, presentationNs(i));
            counts[round(earliest, rounds, roundNs)]++;
        }
        int[] start = new int[rounds + 1];
        for (int k = 1; k <= rounds; k++) {
            start[k] = start[k - 1] + counts[k - 1];
        }
        if (s.video()) {
            for (int i = 0; i < n; i++) {
                if (s.sync(i)) {
                    snapToKeyframe(start, i, rounds, roundNs);
                }
            }
            openAtKeyframes(start, rounds);
        }
        roundStart = start;
    }

    /**
     * Opens every round that holds a sync sample at the first of them: the samples decoded before
     * it go with the round before, so a stream that starts at the round sends its keyframe first.
     */
    private void openAtKeyframes(int[] start, int rounds) {
        for (int k = 1; k < rounds; k++) {
            int i = start[k];
            while (i < start[k + 1] && !samples.sync(i)) {
                i++;
            }
            if (i < start[k + 1]) {
                start[k] = i;
            }
        }
    }

    /** Opens a round at sync sample {@code i} if its decode or presentation time is at the round's start. */
    private void snapToKeyframe(int[] start, int i, int rounds, long roundNs) throws MediaFormatException {
        long halfFrameNs = Ticks.toNs(samples.duration(i), header.timescale(), where()) / 2;
        long k = snapRound(decodeNs(i), presentationNs(i), halfFrameNs, roundNs);
        if (k < 0 || k >= rounds || start[(int) k] == i) {
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

    /**
     * The round (1 or more) whose start lies within half a frame of a sync sample's decode or
     * presentation time, which it so opens; -1 for none.
     */
    static long snapRound(long decodeNs, long presentationNs, long halfFrameNs, long roundNs) {
        long from = Math.min(decodeNs, presentationNs) - halfFrameNs;
        long to = Math.max(decodeNs, presentationNs) + halfFrameNs;
        long k = Math.max(1, Math.floorDiv(from + roundNs - 1, roundNs));
        return k * roundNs > to ? -1 : k;
    }

    private static int round(long ns, int rounds, long roundNs) {
        return ns <= 0 ? 0 : (int) Math.min(rounds - 1, ns / roundNs);
    }
}

package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;
import io.rondo.content.model.Fragment;
import java.util.ArrayList;
import java.util.List;

/**
 * One track of a live recording: its samples that arrived and are not yet cut, on the recording's
 * timeline, and where the next round's cut falls among them once what arrives next can no longer
 * move it.
 *
 * <p>The cut is {@link PlannedTrack}'s, made with a bounded look ahead. A sample goes to the round in
 * which it or a sample decoded after it is first presented; the samples still to come are decoded
 * no earlier than this track's next decode time, and presented no earlier than that plus the most
 * negative composition offset seen, so round k's end is known once that bound is past it (half a
 * frame past, for video, so that no keyframe to come could open round k + 1). For video, round
 * k + 1 then starts at its first keyframe: known once one arrived in it, or once the bound is past
 * round k + 1 too.
 */
final class LiveTrack {

    /** {@link #cut}'s answer while the samples to come could still move the cut. */
    static final int UNDECIDED = -1;

    /** A sample held until its round is cut: its bytes are {@code size} bytes of {@code data} at {@code at}. */
    record Held(long decodeTime, long duration, int compositionOffset, boolean sync, byte[] data, int at, int size,
                long presentationNs, long decodeNs) {
    }

    final TrackHeader header;
    final boolean video;
    private final String where;
    private final List<Held> held = new ArrayList<>();
    /** Whether a sample of the track arrived yet. */
    boolean started;
    /** Which of the recording's timelines the track is on: one more after each discontinuity. */
    int timeline;
    /** Ticks added to the source's decode times to put them on the recording's timeline. */
    long offset;
    /** Where the source's last sample's decoding ended, in the source's ticks. */
    long sourceDecodeEnd;
    /** The most negative composition offset seen, or 0. */
    private long minCompositionOffset;
    private long halfFrameNs;
    /** Where decoding of the last sample ends on the recording's timeline, in ns. */
    private long decodeEndNs;
    /** Where the presentation of the last sample ends, in ns. */
    long presentationEndNs;
    private long heldBytes;

    LiveTrack(TrackHeader header) {
        this.header = header;
        this.video = header.handler().equals(TrackHeader.VIDEO);
        this.where = "track " + header.trackId();
    }

    /** When {@code ticks} of the track's (offset) media time are presented, in ns on the recording's timeline. */
    long ns(long ticks) throws MediaFormatException {
        return Ticks.toNs(ticks - header.editShift(), header.timescale(), where);
    }

    /**
     * Holds sample {@code i} of {@code s}, which {@link Mp4Demuxer} read with its offset in the stream;
     * its bytes lie in {@code mdat}, whose data start at stream offset {@code mdatData}.
     */
    void hold(SampleTrack s, int i, byte[] mdat, long mdatData) throws MediaFormatException {
        long at = s.offset(i) - mdatData;
        if (at < 0 || at + s.size(i) > mdat.length) {
            throw MediaFormatException.corrupt("sample " + (i + 1) + " of " + where + " in its moof (" + s.size(i)
                + " bytes at byte " + s.offset(i) + ") is not in the mdat after it (bytes " + mdatData + " to "
                + (mdatData + mdat.length) + ")");
        }
        long decodeTime = s.decodeTime(i) + offset;
        if (decodeTime < 0) {
            throw MediaFormatException.corrupt(where + " decodes a sample at " + decodeTime + " ticks, before the"
                + " recording's start");
        }
        long duration = s.duration(i);
        int cto = s.compositionOffset(i);
        long presentationNs = ns(decodeTime + cto);
        Held h = new Held(decodeTime, duration, cto, s.sync(i), mdat, (int) at, s.size(i), presentationNs,
            ns(decodeTime));
        held.add(h);
        heldBytes += h.size();
        started = true;
        sourceDecodeEnd = s.decodeTime(i) + duration;
        minCompositionOffset = Math.min(minCompositionOffset, cto);
        halfFrameNs = Math.max(halfFrameNs, Ticks.toNs(duration, header.timescale(), where) / 2);
        decodeEndNs = ns(decodeTime + duration);
        presentationEndNs = Math.max(presentationEndNs, ns(decodeTime + cto + duration));
    }

    /** No sample to come is presented before this, in ns on the recording's timeline. */
    long futureNs() throws MediaFormatException {
        return decodeEndNs + Ticks.toNs(minCompositionOffset, header.timescale(), where);
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    long heldBytes() {
        return heldBytes;
    }

    /** The earliest presentation among the samples held, in ns; {@link Long#MAX_VALUE} if none is. */
    long earliestHeldNs() {
        long earliest = Long.MAX_VALUE;
        for (Held h : held) {
            earliest = Math.min(earliest, h.presentationNs());
        }
        return earliest;
    }

    /**
     * How many of the held samples go to rounds up to {@code k} of {@code roundNs}: the cut between
     * round k and k + 1, or {@link #UNDECIDED} while samples to come could still move it.
     *
     * @param finished whether no sample is to come
     */
    int cut(long k, long roundNs, boolean finished) throws MediaFormatException {
        int n = held.size();
        long end = (k + 1) * roundNs;
        long nextEnd = end + roundNs;
        long future = finished ? Long.MAX_VALUE : futureNs();
        if (future < end + (video ? halfFrameNs : 0)) {
            return UNDECIDED;
        }
        long[] earliest = new long[n + 1];
        earliest[n] = future;
        for (int i = n - 1; i >= 0; i--) {
            earliest[i] = Math.min(earliest[i + 1], held.get(i).presentationNs());
        }
        int cut = 0;
        while (cut < n && earliest[cut] < end) {
            cut++;
        }
        if (!video) {
            return cut;
        }
        for (int i = 0; i < n; i++) {
            if (held.get(i).sync() && snapRound(i, roundNs) == k + 1) {
                cut = i;
            }
        }
        int keyframe = cut;
        while (keyframe < n && !held.get(keyframe).sync()) {
            keyframe++;
        }
        if (keyframe == n) {
            return future >= nextEnd ? cut : UNDECIDED;
        }
        if (snapRound(keyframe, roundNs) > k + 1) {
            return cut;
        }
        if (earliest[keyframe] < nextEnd) {
            return keyframe;
        }
        return future >= nextEnd ? cut : UNDECIDED;
    }

    private long snapRound(int i, long roundNs) throws MediaFormatException {
        Held h = held.get(i);
        return PlannedTrack.snapRound(h.decodeNs(), h.presentationNs(),
            Ticks.toNs(h.duration(), header.timescale(), where) / 2, roundNs);
    }

    /** Whether the first sample held is a keyframe. */
    boolean syncFirst() {
        return held.get(0).sync();
    }

    /** The presentation of the first keyframe among the first {@code count} held samples, if any. */
    long keyframeNs(int count) {
        for (int i = 0; i < count; i++) {
            if (held.get(i).sync()) {
                return Math.max(0, held.get(i).presentationNs());
            }
        }
        return Fragment.NO_KEYFRAME;
    }

    /** When the presentation of the first {@code count} held samples ends. */
    long endNs(int count) throws MediaFormatException {
        long endNs = 0;
        for (int i = 0; i < count; i++) {
            Held h = held.get(i);
            endNs = Math.max(endNs, h.presentationNs() + Ticks.toNs(h.duration(), header.timescale(), where));
        }
        return endNs;
    }

    /**
     * Takes the first {@code count} held samples out, as a track whose offsets count from
     * {@code payloadAt} in a fragment's mdat; their bytes go to {@code payload} there. A sample lasts
     * until the next one's decoding, where that follows it, so decode times stay exact across the cut.
     */
    SampleTrack take(int count, byte[] payload, int payloadAt) throws MediaFormatException {
        SampleTrack s = new SampleTrack(header, count);
        int at = payloadAt;
        for (int i = 0; i < count; i++) {
            Held h = held.get(i);
            long duration = h.duration();
            if (i + 1 < held.size()) {
                long toNext = held.get(i + 1).decodeTime() - h.decodeTime();
                duration = toNext >= 0 && toNext <= 0xFFFF_FFFFL ? toNext : duration;
            }
            s.add(at, h.size(), h.decodeTime(), duration, h.compositionOffset(), h.sync());
            System.arraycopy(h.data(), h.at(), payload, at, h.size());
            at += h.size();
            heldBytes -= h.size();
        }
        held.subList(0, count).clear();
        return s;
    }

    /** How many bytes the first {@code count} held samples have. */
    long bytes(int count) {
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            bytes += held.get(i).size();
        }
        return bytes;
    }
}

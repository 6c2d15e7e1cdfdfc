package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A track whose edit list starts its presentation late in its media, as a cut made without
 * re-encoding leaves it ({@code ffmpeg -ss 3.5 -i in.mp4 -c copy out.mp4}: the video from the
 * keyframe before 3.5 s, the audio from a little before, and an edit that presents from 3.5 s),
 * trimmed so that the stored copy starts where the source's presentation starts and lasts as long.
 *
 * <p>A browser's MSE and ffmpeg read the edit list of a fragmented MP4 as a shift only: without
 * this, the stored copy would present the media before the edit at negative times, from -3.5 s,
 * and last that much longer. So:
 * <ul>
 *   <li>audio keeps one sample before the one playing at the edit's start (a decoder's pre-roll),
 *       and drops those before it; the stored edit shifts what is left by less than two samples;
 *   <li>video keeps the samples from the last keyframe, in decode order, before the first sample
 *       presented at or after the edit's start, and drops those before it. The kept samples
 *       presented before the edit's start (the decoder needs them, the viewer does not) are given
 *       one tick each, from 0: together a few milliseconds, less than one frame of the display,
 *       after which the source's presentation follows at the time it had, that many ticks later.
 *       Decode times keep their order, the kept samples before the edit one tick apart.
 * </ul>
 * A track whose edit only shifts out a B-frame delay or an AAC priming, with nothing presented
 * before it, is left as it is.
 */
final class EditListCut {

    private EditListCut() {
    }

    /** {@code track}, trimmed to its edit list's presentation where that starts late in its media. */
    static SampleTrack trim(SampleTrack track) throws MediaFormatException {
        long start = track.header().editShift();
        if (start <= 0 || track.count() == 0) {
            return track;
        }
        return track.video() ? trimVideo(track, start) : trimAudio(track, start);
    }

    private static SampleTrack trimAudio(SampleTrack t, long start) throws MediaFormatException {
        int n = t.count();
        int playing = 0;
        while (playing < n && presentation(t, playing) + t.duration(playing) <= start) {
            playing++;
        }
        int first = Math.max(0, playing - 1);
        if (first == 0 || playing == n) {
            return t;
        }
        long base = t.decodeTime(first);
        SampleTrack out = new SampleTrack(shifted(t.header(), start - base), n - first);
        for (int i = first; i < n; i++) {
            out.add(t.offset(i), t.size(i), t.decodeTime(i) - base, t.duration(i), t.compositionOffset(i), t.sync(i));
        }
        return out;
    }

    private static SampleTrack trimVideo(SampleTrack t, long start) throws MediaFormatException {
        int n = t.count();
        int shown = 0;
        while (shown < n && presentation(t, shown) < start) {
            shown++;
        }
        if (shown == n) {
            return t;
        }
        int first = shown;
        while (first > 0 && !t.sync(first)) {
            first--;
        }
        int before = 0;
        int lastBefore = -1;
        for (int i = first; i < n; i++) {
            if (presentation(t, i) < start) {
                before++;
                lastBefore = i;
            }
        }
        if ((first == 0 && before == 0) || lastBefore == n - 1) {
            return t;
        }
        // presentation: the samples before the edit one tick each from 0, the rest as in the source after them
        Integer[] early = new Integer[before];
        long[] pts = new long[n - first];
        int e = 0;
        for (int i = first; i < n; i++) {
            pts[i - first] = presentation(t, i) - start + before;
            if (presentation(t, i) < start) {
                early[e++] = i;
            }
        }
        Arrays.sort(early, Comparator.comparingLong(i -> presentation(t, i)));
        for (int k = 0; k < before; k++) {
            pts[early[k] - first] = k;
        }
        // decode: the source's times on the same shift, the samples up to the last one before the edit packed
        long[] dts = new long[n - first];
        for (int i = n - 1; i >= first; i--) {
            dts[i - first] = i > lastBefore ? t.decodeTime(i) - start + before : dts[i - first + 1] - 1;
        }
        long dtsBase = Math.max(0, -dts[0]);
        long ptsBase = dtsBase;
        for (int i = 0; i < pts.length; i++) {
            ptsBase = Math.max(ptsBase, dts[i] + dtsBase - pts[i]);
        }
        SampleTrack out = new SampleTrack(shifted(t.header(), ptsBase), n - first);
        for (int i = first; i < n; i++) {
            int j = i - first;
            long decode = dts[j] + dtsBase;
            long offset = pts[j] + ptsBase - decode;
            if (offset > Integer.MAX_VALUE) {
                throw MediaFormatException.unsupported("track " + t.header().trackId() + " presents sample " + (i + 1)
                    + " too long after it decodes it to store its edit list's cut");
            }
            long duration = i + 1 < n ? dts[j + 1] - dts[j] : t.duration(i);
            out.add(t.offset(i), t.size(i), decode, duration, (int) offset, t.sync(i));
        }
        return out;
    }

    private static long presentation(SampleTrack t, int i) {
        return t.decodeTime(i) + t.compositionOffset(i);
    }

    private static TrackHeader shifted(TrackHeader h, long editShift) {
        return new TrackHeader(h.trackId(), h.handler(), h.timescale(), h.sampleEntry(), h.entryOffset(), h.language(),
            h.flags(), h.alternateGroup(), h.volume(), h.matrix(), h.width(), h.height(), editShift, h.editEndNs());
    }
}

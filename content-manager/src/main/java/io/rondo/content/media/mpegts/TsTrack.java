package io.rondo.content.media.mpegts;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.isobmff.SampleTrack;
import io.rondo.content.media.isobmff.TrackHeader;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/** One kept stream's samples as rewritten into the file of samples, in decode order. */
abstract class TsTrack {
    final Stream stream;
    final boolean video;
    final SampleFile out;
    long timescale;
    long firstPts = Long.MAX_VALUE;
    int count;
    long[] offsets = new long[256];
    int[] sizes = new int[256];
    long[] times = new long[256];
    int[] compositionOffsets = new int[256];
    boolean[] sync = new boolean[256];
    long lastDuration;
    /** The codec, where the stream turns out to hold one that does not play; else null. */
    String unplayable;

    TsTrack(Stream stream, boolean video, SampleFile out) {
        this.stream = stream;
        this.video = video;
        this.out = out;
    }

    abstract void pes(long pts, long dts, ByteBuffer data, long offset) throws IOException;

    /** Takes in what is still pending at the end of the file. */
    void finish() throws IOException {
    }

    /** The sample entry, made from what the stream's first samples said. */
    abstract byte[] sampleEntry() throws MediaFormatException;

    String where() {
        return String.format(Locale.ROOT, "stream 0x%04X", stream.pid());
    }

    void add(byte[] bytes, int length, long time, int compositionOffset, boolean isSync, long duration)
        throws IOException {
        if (count > 0 && time < times[count - 1]) {
            throw MediaFormatException.corrupt(where() + " decodes a frame at " + time + " ticks of " + timescale
                + " a second, before the frame before it (" + times[count - 1] + ")");
        }
        if (count == offsets.length) {
            int n = count * 2;
            offsets = Arrays.copyOf(offsets, n);
            sizes = Arrays.copyOf(sizes, n);
            times = Arrays.copyOf(times, n);
            compositionOffsets = Arrays.copyOf(compositionOffsets, n);
            sync = Arrays.copyOf(sync, n);
        }
        offsets[count] = out.append(bytes, length);
        sizes[count] = length;
        times[count] = time;
        compositionOffsets[count] = compositionOffset;
        sync[count] = isSync;
        lastDuration = duration;
        count++;
    }

    /** The samples as a track of id {@code id}, times from {@code base} (90 kHz) on. */
    SampleTrack samples(int id, long base) throws MediaFormatException {
        long from = Ticks.rescale(base, MpegTsDemuxer.TIMESCALE, timescale, where());
        long shift = Math.max(0, from - times[0]);
        TrackHeader header = new TrackHeader(id, video ? TrackHeader.VIDEO : TrackHeader.AUDIO, timescale,
            sampleEntry(), -1, TrackHeader.UNDETERMINED, 3, 0, video ? 0 : 0x0100, TrackHeader.IDENTITY,
            video ? (long) width() << 16 : 0, video ? (long) height() << 16 : 0, shift, -1);
        SampleTrack track = new SampleTrack(header, count);
        for (int i = 0; i < count; i++) {
            long next = i + 1 < count ? times[i + 1] : times[i] + lastDuration;
            track.add(offsets[i], sizes[i], times[i] - from + shift, next - times[i], compositionOffsets[i],
                sync[i]);
        }
        return track;
    }

    int width() {
        return 0;
    }

    int height() {
        return 0;
    }
}

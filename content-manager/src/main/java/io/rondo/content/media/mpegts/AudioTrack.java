package io.rondo.content.media.mpegts;

import io.rondo.content.media.Ticks;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An audio stream of frames that may straddle PES packets: a PES packet's PTS belongs to the
 * first frame that starts in it; frames without one follow the frame before.
 */
abstract class AudioTrack extends TsTrack {
    private byte[] pending = new byte[1 << 14];
    private int pendingLength;
    private long pendingPts = MpegTsDemuxer.NO_TIME;
    /** Where in {@link #pending} the frames that {@link #pendingPts} times start. */
    private int ptsFrom;
    private long nextTime = Long.MIN_VALUE;

    AudioTrack(Stream stream, SampleFile out) {
        super(stream, false, out);
    }

    @Override
    void pes(long pts, long dts, ByteBuffer data, long offset) throws IOException {
        int n = data.remaining();
        if (pendingLength + n > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + n));
        }
        data.get(data.position(), pending, pendingLength, n);
        if (pts != MpegTsDemuxer.NO_TIME) {
            pendingPts = pts;
            ptsFrom = pendingLength;
        }
        pendingLength += n;
        int at = 0;
        while (unplayable == null) {
            int start = frameAt(pending, at, pendingLength);
            if (start < 0) {
                // the last bytes may start a header that the next PES packet completes
                at = Math.max(at, pendingLength - 3);
                break;
            }
            int next = take(start);
            if (next < 0) {
                at = start;
                break;
            }
            at = next;
        }
        System.arraycopy(pending, at, pending, 0, pendingLength - at);
        pendingLength -= at;
        ptsFrom = Math.max(0, ptsFrom - at);
    }

    /**
     * Takes the frame at {@code start}, if it is whole in {@link #pending}: adds its sample.
     *
     * @return where the next frame starts, or -1 if this one is not whole yet
     */
    private int take(int start) throws IOException {
        int length = frameLength(pending, start, pendingLength);
        if (length < 0) {
            return -1;
        }
        if (timescale == 0) {
            configure(pending, start);
            if (unplayable != null) {
                return pendingLength;
            }
        }
        if (length == 0) {
            return start + 1;
        }
        if (start + length > pendingLength) {
            return -1;
        }
        long time = nextTime;
        if (pendingPts != MpegTsDemuxer.NO_TIME && start >= ptsFrom) {
            long stamped = Ticks.rescale(pendingPts, MpegTsDemuxer.TIMESCALE, timescale, where());
            if (nextTime == Long.MIN_VALUE || stamped > nextTime + frameSamples()) {
                time = stamped;
                firstPts = Math.min(firstPts, pendingPts);
            }
            pendingPts = MpegTsDemuxer.NO_TIME;
        }
        if (time != Long.MIN_VALUE) {
            int from = start + headerBytes(pending, start);
            add(Arrays.copyOfRange(pending, from, start + length), start + length - from, time, 0, true,
                frameSamples());
            nextTime = time + frameSamples();
        }
        return start + length;
    }

    /** Where the next frame header at or after {@code from} is, or -1; bytes before it are skipped. */
    abstract int frameAt(byte[] b, int from, int end);

    /**
     * The length of the frame whose header is at {@code at}; -1 if its header is not whole yet, 0 if
     * it is no header after all.
     */
    abstract int frameLength(byte[] b, int at, int end);

    /** How many bytes of the frame at {@code at} are not the sample: its header where MP4 drops it. */
    abstract int headerBytes(byte[] b, int at);

    /** Takes the timescale and sample entry from the first frame, or sets {@link #unplayable}. */
    abstract void configure(byte[] b, int at);

    abstract long frameSamples();
}

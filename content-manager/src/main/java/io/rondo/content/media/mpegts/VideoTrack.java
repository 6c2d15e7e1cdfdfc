package io.rondo.content.media.mpegts;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.isobmff.SampleEntryBoxes;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/** H.264 or H.265: one access unit per PES packet, Annex B rewritten with lengths. */
final class VideoTrack extends TsTrack {
    final boolean hevc;
    private byte[] unit = new byte[1 << 16];
    private int unitLength;
    private long unitPts = MpegTsDemuxer.NO_TIME;
    private long unitDts;
    private byte[] sample = new byte[1 << 16];
    private byte[] vps;
    private byte[] sps;
    private byte[] pps;
    private ParameterSets.Config config;
    private long lastDts = MpegTsDemuxer.NO_TIME;
    /** Access units before the first one a decoder can start at: dropped. */
    int undecodable;

    VideoTrack(Stream stream, boolean hevc, SampleFile out) {
        super(stream, true, out);
        this.hevc = hevc;
    }

    @Override
    void pes(long pts, long dts, ByteBuffer data, long offset) throws IOException {
        if (pts != MpegTsDemuxer.NO_TIME) {
            finish();
            unitPts = pts;
            unitDts = dts;
            unitLength = 0;
        } else if (unitPts == MpegTsDemuxer.NO_TIME) {
            return;
        }
        int n = data.remaining();
        if (unitLength + n > MpegTsDemuxer.MAX_PES_BYTES) {
            throw MediaFormatException.unsupported(where() + " holds an access unit of more than "
                + MpegTsDemuxer.MAX_PES_BYTES + " bytes, at byte " + offset);
        }
        if (unitLength + n > unit.length) {
            unit = Arrays.copyOf(unit, Math.max(unit.length * 2, unitLength + n));
        }
        data.get(data.position(), unit, unitLength, n);
        unitLength += n;
    }

    /** Rewrites the pending access unit as a sample, if it has one that can be decoded. */
    @Override
    void finish() throws IOException {
        if (unitPts == MpegTsDemuxer.NO_TIME || unitLength == 0) {
            return;
        }
        long pts = unitPts;
        long dts = unitDts;
        unitPts = MpegTsDemuxer.NO_TIME;
        int length = 0;
        boolean isSync = false;
        int at = nextStartCode(unit, 0, unitLength);
        while (at < unitLength) {
            int from = at;
            int next = nextStartCode(unit, from, unitLength);
            int to = next < unitLength ? next - 3 : unitLength;
            while (to > from && unit[to - 1] == 0) {
                to--;
            }
            at = next;
            if (to <= from) {
                continue;
            }
            int type = hevc ? (unit[from] >> 1) & 0x3F : unit[from] & 0x1F;
            if (hevc ? type == 35 || type == 38 : type == 9 || type == 12) {
                continue;
            }
            keepParameterSet(type, from, to);
            isSync |= hevc ? type >= 16 && type <= 21 : type == 5 || type == 6 && recoveryPoint(from, to);
            if (length + 4 + to - from > sample.length) {
                sample = Arrays.copyOf(sample, Math.max(sample.length * 2, length + 4 + to - from));
            }
            ByteBuffer.wrap(sample, length, 4).putInt(to - from);
            System.arraycopy(unit, from, sample, length + 4, to - from);
            length += 4 + to - from;
        }
        if (length == 0) {
            return;
        }
        if (config == null) {
            if (!isSync || sps == null || pps == null || hevc && vps == null) {
                undecodable++;
                return;
            }
            config = hevc ? ParameterSets.hevc(vps, sps, pps) : ParameterSets.avc(sps, pps);
            timescale = MpegTsDemuxer.TIMESCALE;
            firstPts = pts;
        }
        long cto = pts - dts;
        if (cto > Integer.MAX_VALUE || cto < Integer.MIN_VALUE) {
            throw MediaFormatException.corrupt(where() + " presents a frame " + cto + " ticks of 90 kHz from"
                + " when it is decoded");
        }
        long duration = lastDts == MpegTsDemuxer.NO_TIME ? 0 : dts - lastDts;
        lastDts = dts;
        firstPts = Math.min(firstPts, pts);
        add(sample, length, dts, (int) cto, isSync, Math.max(0, duration));
    }

    /** The first parameter sets, kept for the decoder configuration record. */
    private void keepParameterSet(int type, int from, int to) {
        byte[] nal = Arrays.copyOfRange(unit, from, to);
        if (hevc) {
            if (type == 32 && vps == null) {
                vps = nal;
            } else if (type == 33 && sps == null) {
                sps = nal;
            } else if (type == 34 && pps == null) {
                pps = nal;
            }
        } else if (type == 7 && sps == null) {
            sps = nal;
        } else if (type == 8 && pps == null) {
            pps = nal;
        }
    }

    /** Whether the H.264 SEI NAL unit at {@code [from, to)} starts with a recovery point message (type 6). */
    private boolean recoveryPoint(int from, int to) {
        int at = from + 1;
        int payloadType = 0;
        while (at < to && (unit[at] & 0xFF) == 0xFF) {
            payloadType += 255;
            at++;
        }
        return at < to && payloadType + (unit[at] & 0xFF) == 6;
    }

    /** Where the NAL unit past the next start code ({@code 00 00 01}) from {@code from} starts, or {@code end}. */
    private static int nextStartCode(byte[] b, int from, int end) {
        for (int i = from; i + 2 < end; i++) {
            if ((b[i + 2] & 0xFF) > 1) {
                i += 2;
            } else if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1) {
                return i + 3;
            }
        }
        return end;
    }

    @Override
    byte[] sampleEntry() {
        return hevc ? SampleEntryBoxes.visual("hev1", "hvcC", config.record(), config.width(), config.height())
            : SampleEntryBoxes.visual("avc1", "avcC", config.record(), config.width(), config.height());
    }

    @Override
    int width() {
        return config.width();
    }

    @Override
    int height() {
        return config.height();
    }
}

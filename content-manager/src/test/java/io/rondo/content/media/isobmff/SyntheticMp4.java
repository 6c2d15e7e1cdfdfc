package io.rondo.content.media.isobmff;

import io.rondo.content.media.matroska.SyntheticWebm;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A second fragmented-MP4 muxer, for tests only: ftyp, a moov with empty sample tables and mvex, then
 * moof (mfhd, traf: tfhd, tfdt, trun) + mdat pairs with fake samples, so that tests know every
 * fragment's offset and decode time exactly. Options cover what other muxers do differently: styp
 * and sidx before each moof, 64-bit and to-the-end box sizes, durations by default instead of per
 * sample, tfdt version 0 or missing, mehd, an mfra at the end.
 */
public final class SyntheticMp4 {

    static final int VIDEO_TIMESCALE = 90_000;
    static final int AUDIO_TIMESCALE = 48_000;
    static final int AUDIO_FRAME = 1024;

    /**
     * One moof + mdat: {@code samples} samples of {@code sampleDuration} ticks each, of the video track
     * (90 kHz), or of the audio track (48 kHz) when there is no video.
     */
    record FragmentSpec(int samples, long sampleDuration, int sampleBytes) { }

    /** What was written: the bytes, where each moof is, where each unit (styp/sidx + moof + mdat) starts. */
    record Written(byte[] bytes, List<Long> moofOffsets, List<Long> unitOffsets, long moovEnd) { }

    private boolean video = true;
    private boolean audio;
    private byte[] videoEntry = visualEntry("avc1", box("avcC", bytes(1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1, 0, 4,
        0x67, 0x42, 0xC0, 0x1E, 1, 0, 2, 0x68, 0xCE)));
    private boolean stypAndSidx;
    private boolean largeMdat;
    private boolean lastMdatToEnd;
    private boolean defaultDurations;
    private boolean trexDurations;
    private boolean noTfdt;
    private boolean tfdtVersion0;
    private boolean mfra;
    private boolean samplesInMoov;
    private long mehdTicks;
    private long mvhdTicks;
    private final List<FragmentSpec> fragments = new ArrayList<>();

    SyntheticMp4 audioOnly() {
        this.video = false;
        this.audio = true;
        return this;
    }

    SyntheticMp4 withAudio() {
        this.audio = true;
        return this;
    }

    /** The video sample entry (type and decoder configuration box), e.g. hvc1 with an hvcC. */
    SyntheticMp4 videoEntry(String type, byte[] configBox) {
        this.videoEntry = visualEntry(type, configBox);
        return this;
    }

    SyntheticMp4 stypAndSidx() {
        this.stypAndSidx = true;
        return this;
    }

    SyntheticMp4 largeMdat() {
        this.largeMdat = true;
        return this;
    }

    SyntheticMp4 lastMdatToEnd() {
        this.lastMdatToEnd = true;
        return this;
    }

    /** Sample durations in tfhd rather than per sample in trun. */
    SyntheticMp4 defaultDurations() {
        this.defaultDurations = true;
        return this;
    }

    /** Sample durations from trex only (neither trun nor tfhd has them): one duration for all fragments. */
    SyntheticMp4 trexDurations() {
        this.trexDurations = true;
        return this;
    }

    SyntheticMp4 noTfdt() {
        this.noTfdt = true;
        return this;
    }

    SyntheticMp4 tfdtVersion0() {
        this.tfdtVersion0 = true;
        return this;
    }

    SyntheticMp4 mfra() {
        this.mfra = true;
        return this;
    }

    SyntheticMp4 samplesInMoov() {
        this.samplesInMoov = true;
        return this;
    }

    /** mehd's fragment duration, in the movie timescale (1000). */
    SyntheticMp4 mehd(long ticks) {
        this.mehdTicks = ticks;
        return this;
    }

    /** mvhd's duration, in the movie timescale (1000). */
    SyntheticMp4 mvhd(long ticks) {
        this.mvhdTicks = ticks;
        return this;
    }

    SyntheticMp4 fragment(int samples, long sampleDuration, int sampleBytes) {
        fragments.add(new FragmentSpec(samples, sampleDuration, sampleBytes));
        return this;
    }

    SyntheticMp4 fragments(int count, int samples, long sampleDuration, int sampleBytes) {
        for (int i = 0; i < count; i++) {
            fragment(samples, sampleDuration, sampleBytes);
        }
        return this;
    }

    Written write() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(box("ftyp", ascii("iso6"), u32(0), ascii("iso6"), ascii("mp41")));
        out.writeBytes(moov());
        long moovEnd = out.size();
        List<Long> moofs = new ArrayList<>();
        List<Long> units = new ArrayList<>();
        long videoTime = 0;
        long audioTime = 0;
        for (int f = 0; f < fragments.size(); f++) {
            FragmentSpec spec = fragments.get(f);
            units.add((long) out.size());
            if (stypAndSidx) {
                out.writeBytes(box("styp", ascii("msdh"), u32(0), ascii("msdh"), ascii("msix")));
                out.writeBytes(fullBox("sidx", 0, 0, u32(1), u32(VIDEO_TIMESCALE), u32(videoTime), u32(0), u16(0),
                    u16(1), u32(1000), u32(spec.samples() * spec.sampleDuration()), u32(0x90000000L)));
            }
            long durationTicks = spec.samples() * spec.sampleDuration();
            int audioSamples = (int) (durationTicks * AUDIO_TIMESCALE / VIDEO_TIMESCALE / AUDIO_FRAME);
            List<byte[]> trackSamples = new ArrayList<>();
            if (video) {
                trackSamples.add(sampleBytes(spec.samples(), spec.sampleBytes(), 'v'));
            }
            if (audio) {
                trackSamples.add(sampleBytes(video ? audioSamples : spec.samples(), 20, 'a'));
            }
            byte[] moof = moof(f + 1, spec, videoTime, audioTime, audioSamples, trackSamples, 0);
            moof = moof(f + 1, spec, videoTime, audioTime, audioSamples, trackSamples,
                moof.length + (largeMdat ? 16 : 8));
            moofs.add((long) out.size());
            out.writeBytes(moof);
            byte[] data = cat(trackSamples.toArray(new byte[0][]));
            if (lastMdatToEnd && f == fragments.size() - 1 && !mfra) {
                out.writeBytes(cat(u32(0), ascii("mdat"), data));
            } else if (largeMdat) {
                out.writeBytes(cat(u32(1), ascii("mdat"), u64(16 + data.length), data));
            } else {
                out.writeBytes(box("mdat", data));
            }
            videoTime += durationTicks;
            audioTime += video ? (long) audioSamples * AUDIO_FRAME : durationTicks;
        }
        if (mfra) {
            out.writeBytes(box("mfra", fullBox("tfra", 1, 0, u32(1), u32(0), u32(0)),
                fullBox("mfro", 0, 0, u32(16 + 24 + 8))));
        }
        return new Written(out.toByteArray(), moofs, units, moovEnd);
    }

    private byte[] moov() {
        List<byte[]> parts = new ArrayList<>();
        parts.add(fullBox("mvhd", 0, 0, u32(0), u32(0), u32(1000), u32(mvhdTicks), u32(0x00010000), u16(0x0100),
            new byte[10], matrix(), new byte[24], u32(3)));
        int id = 1;
        List<Integer> ids = new ArrayList<>();
        if (video) {
            parts.add(trak(id, "vide", VIDEO_TIMESCALE, videoEntry));
            ids.add(id++);
        }
        if (audio) {
            parts.add(trak(id, "soun", AUDIO_TIMESCALE, audioEntry()));
            ids.add(id);
        }
        List<byte[]> mvex = new ArrayList<>();
        if (mehdTicks > 0) {
            mvex.add(fullBox("mehd", 0, 0, u32(mehdTicks)));
        }
        for (int trackId : ids) {
            long defaultDuration = !trexDurations ? 0
                : trackId == 1 ? fragments.get(0).sampleDuration() : AUDIO_FRAME;
            mvex.add(fullBox("trex", 0, 0, u32(trackId), u32(1), u32(defaultDuration), u32(0), u32(0)));
        }
        parts.add(box("mvex", mvex.toArray(new byte[0][])));
        return box("moov", parts.toArray(new byte[0][]));
    }

    private byte[] trak(int id, String handler, int timescale, byte[] entry) {
        boolean isVideo = handler.equals("vide");
        byte[] tkhd = fullBox("tkhd", 0, 3, u32(0), u32(0), u32(id), u32(0), u32(0), new byte[8], u16(0), u16(0),
            u16(isVideo ? 0 : 0x0100), u16(0), matrix(), u32(isVideo ? 160L << 16 : 0), u32(isVideo ? 120L << 16 : 0));
        byte[] mdhd = fullBox("mdhd", 0, 0, u32(0), u32(0), u32(timescale), u32(0), u16(0x55C4), u16(0));
        byte[] hdlr = fullBox("hdlr", 0, 0, u32(0), ascii(handler), new byte[12], ascii("Synthetic\0"));
        byte[] header = isVideo ? fullBox("vmhd", 0, 1, new byte[8]) : fullBox("smhd", 0, 0, new byte[4]);
        byte[] dinf = box("dinf", fullBox("dref", 0, 0, u32(1), fullBox("url ", 0, 1)));
        int samples = samplesInMoov ? 1 : 0;
        byte[] stbl = box("stbl", fullBox("stsd", 0, 0, u32(1), entry), fullBox("stts", 0, 0, u32(0)),
            fullBox("stsc", 0, 0, u32(0)), fullBox("stsz", 0, 0, u32(samples > 0 ? 10 : 0), u32(samples)),
            fullBox("stco", 0, 0, u32(0)));
        return box("trak", tkhd, box("mdia", mdhd, hdlr, box("minf", header, dinf, stbl)));
    }

    private byte[] moof(int sequence, FragmentSpec spec, long videoTime, long audioTime, int audioSamples,
                        List<byte[]> samples, int dataOffset) {
        List<byte[]> trafs = new ArrayList<>();
        int id = 1;
        int offset = dataOffset;
        if (video) {
            trafs.add(traf(id++, videoTime, spec.samples(), spec.sampleDuration(), spec.sampleBytes(), offset));
            offset += samples.get(0).length;
        }
        if (audio) {
            trafs.add(video ? traf(id, audioTime, audioSamples, AUDIO_FRAME, 20, offset)
                : traf(id, audioTime, spec.samples(), spec.sampleDuration(), 20, offset));
        }
        List<byte[]> parts = new ArrayList<>();
        parts.add(fullBox("mfhd", 0, 0, u32(sequence)));
        parts.addAll(trafs);
        return box("moof", parts.toArray(new byte[0][]));
    }

    private byte[] traf(int trackId, long decodeTime, int count, long sampleDuration, int sampleBytes, int dataOffset) {
        boolean inTfhd = defaultDurations && !trexDurations;
        byte[] tfhd = fullBox("tfhd", 0, 0x020000 | (inTfhd ? 0x08 : 0) | 0x10, u32(trackId),
            inTfhd ? u32(sampleDuration) : new byte[0], u32(sampleBytes));
        byte[] tfdt = noTfdt ? new byte[0] : tfdtVersion0 ? fullBox("tfdt", 0, 0, u32(decodeTime))
            : fullBox("tfdt", 1, 0, u64(decodeTime));
        boolean perSample = !defaultDurations && !trexDurations;
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            if (perSample) {
                records.writeBytes(u32(sampleDuration));
            }
        }
        int flags = 0x001 | (perSample ? 0x100 : 0);
        byte[] trun = fullBox("trun", 0, flags, u32(count), u32(dataOffset), records.toByteArray());
        return box("traf", tfhd, tfdt, trun);
    }

    private static byte[] audioEntry() {
        byte[] esds = fullBox("esds", 0, 0, bytes(0x03, 25, 0, 1, 0, 0x04, 17, 0x40, 0x15, 0, 0, 0, 0, 0, 0x7D, 0,
            0, 0, 0x7D, 0, 0x05, 2, 0x11, 0x88, 0x06, 1, 2));
        return box("mp4a", new byte[6], u16(1), new byte[8], u16(1), u16(16), u16(0), u16(0), u32(48000L << 16),
            esds);
    }

    private static byte[] visualEntry(String type, byte[] configBox) {
        return box(type, new byte[6], u16(1), u16(0), u16(0), new byte[12], u16(160), u16(120), u32(0x00480000),
            u32(0x00480000), u32(0), u16(1), new byte[32], u16(0x18), u16(0xFFFF), configBox);
    }

    private static byte[] sampleBytes(int count, int bytesEach, char fill) {
        byte[] b = new byte[count * bytesEach];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    private static byte[] matrix() {
        return cat(u32(0x00010000), u32(0), u32(0), u32(0), u32(0x00010000), u32(0), u32(0), u32(0),
            u32(0x40000000));
    }

    static byte[] box(String type, byte[]... parts) {
        byte[] body = cat(parts);
        return cat(u32(8 + body.length), ascii(type), body);
    }

    static byte[] fullBox(String type, int version, int flags, byte[]... parts) {
        return box(type, cat(u32(((long) version << 24) | flags), cat(parts)));
    }

    static byte[] u16(int v) {
        return new byte[] {(byte) (v >> 8), (byte) v};
    }

    static byte[] u32(long v) {
        return ByteBuffer.allocate(4).putInt((int) v).array();
    }

    static byte[] u64(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    public static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    static byte[] cat(byte[]... parts) {
        return SyntheticWebm.cat(parts);
    }
}

package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import java.nio.ByteBuffer;

/**
 * The boxes of one round's fragment (ISO/IEC 14496-12 8.8): a moof (mfhd k + 1, a traf per track
 * with samples in the round: tfhd with default-base-is-moof, tfdt, a trun of version 1 where a
 * composition offset is negative) and the header of the mdat that holds the round's samples track
 * by track. Built again for each fragment written, from the sample tables alone.
 */
final class FragmentBoxes {

    /** sample_depends_on = 2: a sync sample. */
    static final int SYNC_FLAGS = 0x0200_0000;
    /** sample_depends_on = 1, sample_is_non_sync_sample. */
    static final int NON_SYNC_FLAGS = 0x0101_0000;

    private final PlannedTrack[] tracks;
    private final BoxBuffer moof = new BoxBuffer(1 << 12);
    private final int[] dataOffsetAt;
    /** The mdat payload of the round whose moof {@link #moof} holds. */
    private long payload;

    FragmentBoxes(PlannedTrack[] tracks) {
        this.tracks = tracks;
        this.dataOffsetAt = new int[tracks.length];
    }

    /** Builds round k's moof, its data offsets set; returns the fragment's length. */
    long build(int k) throws MediaFormatException {
        BoxBuffer b = moof;
        b.clear();
        int moofAt = b.begin("moof");
        int mfhd = b.beginFull("mfhd", 0, 0);
        b.u32(k + 1L);
        b.end(mfhd);
        long payload = 0;
        for (int t = 0; t < tracks.length; t++) {
            PlannedTrack p = tracks[t];
            int from = p.roundStart(k);
            int to = p.roundStart(k + 1);
            dataOffsetAt[t] = -1;
            if (from < to) {
                dataOffsetAt[t] = traf(b, p.samples, p.delay, from, to);
                for (int i = from; i < to; i++) {
                    payload += p.samples.size(i);
                }
            }
        }
        b.end(moofAt);
        this.payload = payload;
        int header = mdatHeaderLength(payload);
        long data = b.position() + header;
        for (int t = 0; t < tracks.length; t++) {
            if (dataOffsetAt[t] >= 0) {
                b.putU32(dataOffsetAt[t], data);
                PlannedTrack p = tracks[t];
                for (int i = p.roundStart(k); i < p.roundStart(k + 1); i++) {
                    data += p.samples.size(i);
                }
            }
        }
        return data;
    }

    /**
     * Writes a traf of samples [from, to) of {@code s}, {@code delay} ticks added to their decode
     * times; returns where its trun's data offset is to be written.
     */
    static int traf(BoxBuffer b, SampleTrack s, long delay, int from, int to) throws MediaFormatException {
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
                throw MediaFormatException.corrupt("track " + s.header().trackId() + " has a sample of " + duration
                    + " ticks at " + s.decodeTime(i) + " ticks");
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
        b.u32(s.header().trackId());
        if (sameDuration) {
            b.u32(firstDuration);
        }
        if (defaultFlags) {
            b.u32(restFlags);
        }
        b.end(tfhd);
        int tfdt = b.beginFull("tfdt", 1, 0);
        b.u64(s.decodeTime(from) + delay);
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

    /** How long the mdat header of {@code payload} bytes is: 8 bytes, or 16 with a 64-bit size. */
    static int mdatHeaderLength(long payload) {
        return payload + 8 > 0xFFFF_FFFFL ? 16 : 8;
    }

    /** Puts the moof of the round last {@link #build built} and its mdat header into {@code buf}. */
    void put(ByteBuffer buf) {
        buf.put(moof.view());
        putMdatHeader(buf, payload);
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
}

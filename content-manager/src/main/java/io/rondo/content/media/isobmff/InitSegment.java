package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The init segment of a stored fragmented MP4 (ISO/IEC 14496-12 8.8.1).
 *
 * <p><b>The stored file.</b> An init segment: ftyp (iso6), moov (mvhd; per track tkhd, an edts
 * where the track shifts its media time or its edit ends it before its last sample does, so the stored
 * copy lasts as long as the source, mdia with the source's sample entry and empty sample
 * tables; mvex with mehd and a trex per track). Then per round k: a moof (mfhd k + 1, a traf per
 * track with samples in the round: tfhd with default-base-is-moof, tfdt, a trun of version 1 where
 * a composition offset is negative) and one mdat holding the round's samples track by track.
 * Decode times stay the source's (a late-starting track's delay is added to them, where the source
 * had an empty edit), so presentation times are exactly the source's.
 */
final class InitSegment {

    /** The movie timescale: mvhd, tkhd, elst and mehd count milliseconds, as ffmpeg's do. */
    static final int MOVIE_TIMESCALE = 1000;

    private static final Set<String> KEPT_BRANDS =
        Set.of("isom", "iso2", "iso3", "iso4", "mp42", "avc1", "av01", "M4A ", "M4V ", "M4B ");

    private InitSegment() {
    }

    /** The init segment of {@code tracks}: ftyp and moov. */
    static byte[] build(PlannedTrack[] tracks, List<String> sourceBrands, long durationNs)
        throws MediaFormatException {
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
        for (PlannedTrack t : tracks) {
            nextTrackId = Math.max(nextTrackId, t.header.trackId() + 1);
        }
        b.u32(Math.min(nextTrackId, 0xFFFF_FFFFL));
        b.end(mvhd);
        for (PlannedTrack t : tracks) {
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
        for (PlannedTrack t : tracks) {
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

    private static void trak(BoxBuffer b, PlannedTrack t) throws MediaFormatException {
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

package io.rondo.content.media.isobmff;

import io.rondo.content.media.FieldCursor;
import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Ticks;
import io.rondo.content.media.isobmff.IsoBoxes.Box;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an ISO BMFF file (ISO/IEC 14496-12: MP4, M4A, MOV-like) into {@link SampleTrack}s: the
 * audio and video tracks of its moov, with every sample found from the moov's sample tables (a
 * progressive file, moov first or last) and from every moof (a fragmented file, whatever its
 * fragments' length), in decode order. Only headers and tables are read, never a sample's bytes.
 *
 * <p>Sample tables: stsz or stz2, stco or co64, stsc, stts, ctts (version 0 and 1; a ctts shorter
 * than the samples leaves the rest at offset 0), stss (absent: every sample is a sync sample).
 * Movie fragments: tfhd (base data offset, default-base-is-moof, defaults for duration, size and
 * flags), the trex defaults, tfdt (absent: the track's decode time continues), every trun field,
 * several trafs per moof and several truns per traf.
 *
 * <p>Edit lists: leading empty edits delay the track, and the first edit with media becomes the
 * track's {@link TrackHeader#editShift()} (the B-frame delay and AAC priming ffmpeg writes, or the
 * start of a cut, which {@link EditListCut} trims to) and its end. Edits after that one, as an
 * editor's cut list would have, are not applied: the track then plays its media to the end.
 *
 * <p>QuickTime files ({@code .mov}, brand {@code qt  }) are read the same way; their sound sample
 * descriptions become ISO ones ({@link QuickTimeAudio}).
 *
 * <p>Tracks other than audio and video (text, timecode, hint) are dropped. A track whose samples
 * switch to another of its stsd's sample descriptions cannot be stored under one, and makes the
 * file one Rondo does not stream, with a note saying so.
 */
final class Mp4Demuxer {

    /** The most read into memory at once: one moov or moof (a 2-hour moov is about 5 MB). */
    static final int MAX_BOX_BYTES = 256 << 20;

    private static final int NON_SYNC_SAMPLE = 0x0001_0000;

    /** The handlers of subtitle and caption tracks: MP4 timed text, QuickTime text, closed captions. */
    private static final Set<String> SUBTITLE_HANDLERS = Set.of("text", "sbtl", "subt", "clcp");

    /**
     * What the file holds.
     *
     * @param brands the ftyp's major and compatible brands, in order
     * @param tracks the audio and video tracks with samples, in the moov's order
     * @param note   why the file cannot be stored as it is, or null
     * @param subtitles the subtitle tracks the stored copy leaves out, each as {@code track 3 ('tx3g')}
     */
    record Source(List<String> brands, List<SampleTrack> tracks, String note, List<String> subtitles) {
    }

    private final MediaFile in;
    private final long size;
    private final List<Trak> traks = new ArrayList<>();
    private final Set<String> notes = new LinkedHashSet<>();
    private final List<String> brands = new ArrayList<>();
    private long movieTimescale;

    private Mp4Demuxer(MediaFile in, long size) {
        this.in = in;
        this.size = size;
    }

    /**
     * A demuxer of boxes a caller reads itself, as they arrive ({@link LiveMp4Cutter}): no file, so
     * no bound on where samples lie; the caller finds their bytes.
     */
    static Mp4Demuxer ofBoxes() {
        return new Mp4Demuxer(null, Long.MAX_VALUE);
    }

    /**
     * Reads the tracks and samples of the ISO BMFF file {@code in}.
     *
     * @throws MediaFormatException if it is truncated or corrupt, naming the box and where it is
     */
    static Source read(MediaFile in) throws IOException {
        return new Mp4Demuxer(in, in.size()).read();
    }

    private Source read() throws IOException {
        Box moov = null;
        long pos = 0;
        while (pos < size) {
            Box box = IsoBoxes.topBox(in, pos);
            switch (box.type()) {
                case "ftyp" -> {
                    if (brands.isEmpty()) {
                        readFtyp(box);
                    }
                }
                case "moov" -> {
                    if (moov != null) {
                        throw MediaFormatException.corrupt(box.describe() + " is a second moov; the first is at byte "
                            + moov.offset());
                    }
                    moov = box;
                    readMoov(box, IsoBoxes.read(in, box, MAX_BOX_BYTES));
                }
                case "moof" -> {
                    if (moov == null) {
                        throw MediaFormatException.unsupported(box.describe() + " comes before any moov: this is a"
                            + " media segment without its initialization segment");
                    }
                    readMoof(box, IsoBoxes.read(in, box, MAX_BOX_BYTES));
                }
                default -> {
                    // mdat, free, sidx, mfra, ...: samples are found through the tables and truns
                }
            }
            pos = box.end();
        }
        if (moov == null) {
            throw MediaFormatException.corrupt("the file has ISO BMFF boxes but no moov: it cannot be played");
        }
        List<SampleTrack> tracks = new ArrayList<>();
        List<String> subtitles = new ArrayList<>();
        for (Trak t : traks) {
            if (t.samples != null && t.samples.count() > 0) {
                tracks.add(t.samples);
            }
            if (SUBTITLE_HANDLERS.contains(t.handler)) {
                subtitles.add("track " + t.id + (t.entry != null && t.entry.length >= 8
                    ? " ('" + IsoBoxes.fourcc(ByteBuffer.wrap(t.entry), 4) + "')" : ""));
            }
        }
        return new Source(List.copyOf(brands), tracks, notes.isEmpty() ? null : String.join("; ", notes),
            List.copyOf(subtitles));
    }

    /**
     * The samples read since the last call, a track each (audio and video, in the moov's order,
     * possibly empty); each track starts again with none, its next decode time kept.
     */
    List<SampleTrack> takeSamples() {
        List<SampleTrack> taken = new ArrayList<>();
        for (Trak t : traks) {
            if (t.samples != null) {
                taken.add(t.samples);
                t.samples = new SampleTrack(t.samples.header());
            }
        }
        return taken;
    }

    private void readFtyp(Box ftyp) throws IOException {
        FieldCursor d = new FieldCursor(IsoBoxes.read(in, ftyp, MediaFile.WINDOW_BYTES), ftyp.dataOffset(),
            ftyp.describe());
        brands.add(IsoBoxes.fourcc(d.take(4), 0));
        d.skip(4);
        while (d.remaining() >= 4) {
            brands.add(IsoBoxes.fourcc(d.take(4), 0));
        }
    }

    /** Reads the tracks of {@code moov}, whose data (after its header) is {@code body}. */
    void readMoov(Box moov, ByteBuffer body) throws MediaFormatException {
        Map<Long, TrackExtends> trex = new HashMap<>();
        IsoBoxes.boxes(body, moov.dataOffset(), moov.describe(), (box, d) -> {
            switch (box.type()) {
                case "mvhd" -> {
                    int version = d.u8();
                    d.skip(version == 1 ? 19 : 11);
                    movieTimescale = d.u32();
                }
                case "trak" -> readTrak(box, d);
                case "mvex" -> IsoBoxes.children(d, box.describe(), (child, c) -> {
                    if (child.type().equals("trex")) {
                        c.skip(4);
                        long trackId = c.u32();
                        trex.put(trackId, new TrackExtends(c.u32(), c.u32(), c.u32(), c.u32()));
                    }
                });
                default -> d.skip(d.remaining());
            }
        });
        for (Trak t : traks) {
            t.trex = trex.getOrDefault(t.id, TrackExtends.NONE);
            if (t.playable()) {
                t.samples = new SampleTrack(header(t), SampleTables.sampleCount(t));
                SampleTables.read(t, size, notes);
            }
        }
    }

    private void readTrak(Box trak, FieldCursor data) throws MediaFormatException {
        Trak t = new Trak(trak.describe());
        IsoBoxes.children(data, trak.describe(), (box, d) -> {
            switch (box.type()) {
                case "tkhd" -> t.readTkhd(d);
                case "edts" -> IsoBoxes.children(d, box.describe(), (child, c) -> {
                    if (child.type().equals("elst")) {
                        t.readElst(c);
                    }
                });
                case "mdia" -> readMdia(box, d, t);
                default -> d.skip(d.remaining());
            }
        });
        for (Trak other : traks) {
            if (other.id == t.id) {
                throw MediaFormatException.corrupt(trak.describe() + " has track id " + t.id + ", as "
                    + other.where + " has");
            }
        }
        traks.add(t);
    }

    private void readMdia(Box parent, FieldCursor data, Trak t) throws MediaFormatException {
        IsoBoxes.children(data, parent.describe(), (box, d) -> {
            switch (box.type()) {
                case "mdhd" -> {
                    int version = d.u8();
                    d.skip(version == 1 ? 19 : 11);
                    t.timescale = d.u32();
                    d.skip(version == 1 ? 8 : 4);
                    t.language = d.u16() & 0x7FFF;
                }
                case "hdlr" -> {
                    // the mdia's media handler; QuickTime puts a data handler (alis, url) in minf too
                    if (parent.type().equals("mdia")) {
                        d.skip(8);
                        t.handler = IsoBoxes.fourcc(d.take(4), 0);
                    }
                    d.skip(d.remaining());
                }
                case "minf", "stbl" -> readMdia(box, d, t);
                case "stsd" -> readStsd(box, d, t);
                case "stsz", "stz2", "stco", "co64", "stsc", "stts", "ctts", "stss" -> t.tables.put(box.type(), d);
                default -> d.skip(d.remaining());
            }
        });
    }

    private static void readStsd(Box stsd, FieldCursor d, Trak t) throws MediaFormatException {
        d.skip(8);
        long base = d.offset();
        ByteBuffer entries = d.take(d.remaining());
        IsoBoxes.boxes(entries, base, stsd.describe(), (entry, e) -> {
            if (t.entry == null) {
                int at = (int) (entry.offset() - base);
                t.entry = new byte[(int) entry.size()];
                entries.get(at, t.entry);
                t.entryOffset = entry.offset();
            }
            e.skip(e.remaining());
        });
    }

    private TrackHeader header(Trak t) throws MediaFormatException {
        if (t.timescale == 0) {
            throw MediaFormatException.corrupt(t.where + " has no mdhd timescale");
        }
        if (t.entry == null) {
            throw MediaFormatException.corrupt(t.where + " has no sample description (stsd)");
        }
        if (t.id == 0) {
            throw MediaFormatException.corrupt(t.where + " has no track id (tkhd)");
        }
        long delay = 0;
        long mediaTime = -1;
        long segmentDuration = 0;
        for (Edit edit : t.edits) {
            if (edit.mediaTime() == -1) {
                delay = add(delay, edit.segmentDuration(), t.where);
            } else {
                mediaTime = edit.mediaTime();
                segmentDuration = edit.segmentDuration();
                break;
            }
        }
        long shift = 0;
        long endNs = -1;
        if (delay > 0 || mediaTime >= 0) {
            if (movieTimescale == 0) {
                throw MediaFormatException.corrupt("the mvhd has no timescale for the edit list of " + t.where);
            }
            shift = Math.max(mediaTime, 0) - Ticks.rescale(delay, movieTimescale, t.timescale, t.where);
            if (mediaTime >= 0 && segmentDuration > 0) {
                endNs = Ticks.toNs(add(delay, segmentDuration, t.where), movieTimescale, t.where);
            }
        }
        byte[] entry = t.handler.equals(TrackHeader.AUDIO) ? QuickTimeAudio.isoEntry(t.entry) : t.entry;
        return new TrackHeader(t.id, t.handler, t.timescale, entry, t.entryOffset, t.language, t.flags,
            t.alternateGroup, t.volume, t.matrix, t.width, t.height, shift, endNs);
    }

    /** Appends the samples of {@code moof}, whose data is {@code body}, to their tracks. */
    void readMoof(Box moof, ByteBuffer body) throws MediaFormatException {
        long[] previousDataEnd = {moof.offset()};
        IsoBoxes.boxes(body, moof.dataOffset(), moof.describe(), (box, d) -> {
            if (box.type().equals("traf")) {
                previousDataEnd[0] = readTraf(moof, box, d, previousDataEnd[0]);
            } else {
                d.skip(d.remaining());
            }
        });
    }

    /** Reads a traf's samples; returns where its data ends (where the next traf's may start). */
    private long readTraf(Box moof, Box traf, FieldCursor data, long previousDataEnd) throws MediaFormatException {
        Traf f = new Traf();
        long[] dataEnd = {previousDataEnd};
        IsoBoxes.children(data, traf.describe(), (box, d) -> {
            switch (box.type()) {
                case "tfhd" -> readTfhd(moof, box, d, f, previousDataEnd);
                case "tfdt" -> {
                    requireTfhd(f, box, traf);
                    int version = d.u8();
                    d.skip(3);
                    f.decodeTime = version == 1 ? d.u64() : d.u32();
                }
                case "trun" -> {
                    requireTfhd(f, box, traf);
                    dataEnd[0] = readTrun(box, d, f);
                }
                default -> d.skip(d.remaining());
            }
        });
        if (f.trak != null && f.decodeTime >= 0) {
            f.trak.nextDecodeTime = f.decodeTime;
        }
        return dataEnd[0];
    }

    private static void requireTfhd(Traf f, Box box, Box traf) throws MediaFormatException {
        if (f.trak == null) {
            throw MediaFormatException.corrupt(box.describe() + " comes before the tfhd of " + traf.describe());
        }
    }

    private void readTfhd(Box moof, Box tfhd, FieldCursor d, Traf f, long previousDataEnd)
        throws MediaFormatException {
        d.skip(1);
        int flags = (d.u8() << 16) | d.u16();
        long trackId = d.u32();
        for (Trak t : traks) {
            if (t.id == trackId) {
                f.trak = t;
            }
        }
        if (f.trak == null) {
            throw MediaFormatException.corrupt(tfhd.describe() + " is for track " + trackId
                + ", which the moov does not declare");
        }
        Trak t = f.trak;
        f.base = (flags & 0x01) != 0 ? d.u64() : (flags & 0x02_0000) != 0 ? moof.offset() : previousDataEnd;
        f.description = (flags & 0x02) != 0 ? d.u32() : t.trex.description();
        f.defaultDuration = (flags & 0x08) != 0 ? d.u32() : t.trex.duration();
        f.defaultSize = (flags & 0x10) != 0 ? d.u32() : t.trex.size();
        f.defaultFlags = (flags & 0x20) != 0 ? d.u32() : t.trex.flags();
        f.nextData = f.base;
        f.decodeTime = t.nextDecodeTime;
        if (f.description != 1 && t.playable()) {
            notes.add("track " + t.id + " switches to sample description " + f.description + " of its stsd, and"
                + " Rondo stores a track under one; make it streamable with: "
                + "ffmpeg -i IN -c:v libx264 -c:a aac OUT.mp4");
        }
    }

    /** Reads a trun's samples into its track; returns where its data ends. */
    private long readTrun(Box trun, FieldCursor d, Traf f) throws MediaFormatException {
        int version = d.u8();
        int flags = (d.u8() << 16) | d.u16();
        long count = d.u32();
        long data = (flags & 0x001) != 0 ? f.base + d.s32() : f.nextData;
        boolean firstFlagsPresent = (flags & 0x004) != 0;
        long firstFlags = firstFlagsPresent ? d.u32() : 0;
        int recordBytes = 4 * Integer.bitCount(flags & 0xF00);
        if (count * recordBytes > d.remaining()) {
            throw MediaFormatException.corrupt(trun.describe() + " claims " + count + " samples of " + recordBytes
                + " bytes but holds " + d.remaining() + " bytes");
        }
        if (count > size) {
            // samples of a default size of 0 take no bytes in the trun or the file: only this bounds them
            throw MediaFormatException.corrupt(trun.describe() + " claims " + count
                + " samples, more than a file of " + size + " bytes holds");
        }
        Trak t = f.trak;
        boolean keep = t.playable();
        String track = "track " + t.id;
        for (long i = 0; i < count; i++) {
            long duration = (flags & 0x100) != 0 ? d.u32() : f.defaultDuration;
            long size = (flags & 0x200) != 0 ? d.u32() : f.defaultSize;
            long sampleFlags = (flags & 0x400) != 0 ? d.u32() : f.defaultFlags;
            if (i == 0 && firstFlagsPresent) {
                sampleFlags = firstFlags;
            }
            int compositionOffset = (flags & 0x800) == 0 ? 0 : version == 0 ? (int) d.u32() : d.s32();
            if (size > Integer.MAX_VALUE) {
                throw MediaFormatException.corrupt(trun.describe() + " claims a sample of " + size + " bytes");
            }
            if (keep) {
                checkInFile(this.size, data, size, t.samples.count(), track);
                t.samples.add(data, (int) size, f.decodeTime, duration, compositionOffset,
                    (sampleFlags & NON_SYNC_SAMPLE) == 0);
            }
            data += size;
            f.decodeTime = add(f.decodeTime, duration, trun.describe());
        }
        f.nextData = data;
        return data;
    }

    /** Fails where sample {@code sample} of {@code track} lies past the end of a file of {@code size} bytes. */
    static void checkInFile(long size, long offset, long length, long sample, String track)
        throws MediaFormatException {
        if (offset < 0 || offset > size - length) {
            throw MediaFormatException.truncated("sample " + (sample + 1) + " of " + track + " (" + length
                + " bytes at byte " + offset + ") lies past the end of the file at " + size);
        }
    }

    /** {@code a + b}, failing on overflow with a message naming {@code where}. */
    static long add(long a, long b, String where) throws MediaFormatException {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw MediaFormatException.corrupt(where + " holds times too large to be real");
        }
    }
}

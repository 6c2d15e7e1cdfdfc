package io.rondo.content.media.isobmff;

import io.rondo.content.media.FieldCursor;
import io.rondo.content.media.MediaFormatException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A trak of the moov while the file is read. */
final class Trak {
    final String where;
    long id;
    String handler = "";
    long timescale;
    byte[] entry;
    long entryOffset = -1;
    int language = TrackHeader.UNDETERMINED;
    int flags = 3;
    int alternateGroup;
    int volume;
    int[] matrix = TrackHeader.IDENTITY;
    long width;
    long height;
    final List<Edit> edits = new ArrayList<>();
    final Map<String, FieldCursor> tables = new HashMap<>();
    SampleTrack samples;
    long nextDecodeTime;
    TrackExtends trex = TrackExtends.NONE;

    Trak(String where) {
        this.where = where;
    }

    /** Reads the trak's tkhd: its flags, id, group, volume, matrix and size. */
    void readTkhd(FieldCursor d) throws MediaFormatException {
        int version = d.u8();
        flags = (d.u8() << 16) | d.u16();
        d.skip(version == 1 ? 16 : 8);
        id = d.u32();
        d.skip(4 + (version == 1 ? 8 : 4) + 8 + 2);
        alternateGroup = d.u16();
        volume = d.u16();
        d.skip(2);
        int[] read = new int[9];
        for (int i = 0; i < read.length; i++) {
            read[i] = (int) d.u32();
        }
        matrix = read;
        width = d.u32();
        height = d.u32();
    }

    /** Reads the trak's edit list. */
    void readElst(FieldCursor d) throws MediaFormatException {
        int version = d.u8();
        d.skip(3);
        long count = d.u32();
        if (count * (version == 1 ? 20 : 12) > d.remaining()) {
            throw MediaFormatException.corrupt(d.what() + " claims " + count + " edits but holds " + d.remaining()
                + " bytes");
        }
        for (long i = 0; i < count; i++) {
            long segmentDuration = version == 1 ? d.u64() : d.u32();
            long mediaTime = version == 1 ? d.s64() : d.s32();
            d.skip(4);
            if (mediaTime < -1) {
                throw MediaFormatException.corrupt(d.what() + " has an edit at media time " + mediaTime);
            }
            edits.add(new Edit(segmentDuration, mediaTime));
        }
    }

    boolean playable() {
        return handler.equals(TrackHeader.VIDEO) || handler.equals(TrackHeader.AUDIO);
    }
}

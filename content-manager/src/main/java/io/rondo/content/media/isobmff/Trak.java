package io.rondo.content.media.isobmff;

import io.rondo.content.media.FieldCursor;
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

    boolean playable() {
        return handler.equals(TrackHeader.VIDEO) || handler.equals(TrackHeader.AUDIO);
    }
}

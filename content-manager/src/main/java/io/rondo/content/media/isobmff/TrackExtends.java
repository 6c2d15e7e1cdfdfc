package io.rondo.content.media.isobmff;

/** A track's sample defaults for its fragments (trex): description index, duration, size, flags. */
record TrackExtends(long description, long duration, long size, long flags) {
    /** A track with no trex: the first sample description, and every default zero. */
    static final TrackExtends NONE = new TrackExtends(1, 0, 0, 0);
}

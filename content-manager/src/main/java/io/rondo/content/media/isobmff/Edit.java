package io.rondo.content.media.isobmff;

/** One edit (elst): how long it lasts in the movie's timescale, and where in the media it starts (-1: empty). */
record Edit(long segmentDuration, long mediaTime) {
}

package io.rondo.content.media.isobmff;

/** The track-fragment state while a traf's truns are read. */
final class Traf {
    Trak trak;
    long base;
    long description;
    long defaultDuration;
    long defaultSize;
    long defaultFlags;
    long decodeTime = -1;
    long nextData;
}

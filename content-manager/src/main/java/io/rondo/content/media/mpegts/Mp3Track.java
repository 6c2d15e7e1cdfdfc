package io.rondo.content.media.mpegts;

import io.rondo.content.media.isobmff.SampleEntryBoxes;
import io.rondo.content.media.mp3.Mp3Remuxer;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;
import java.nio.ByteBuffer;

/** MPEG audio: Layer III frames are MP3 samples, headers and all; Layer II and I do not play. */
final class Mp3Track extends AudioTrack {
    private int channels;
    private long samplesPerFrame;

    Mp3Track(Stream stream, SampleFile out) {
        super(stream, out);
    }

    @Override
    int frameAt(byte[] b, int from, int end) {
        for (int i = from; i + 3 < end; i++) {
            if (Mp3Remuxer.isFrameHeader(header(b, i)) || timescale == 0 && otherLayer(header(b, i))) {
                return i;
            }
        }
        return -1;
    }

    @Override
    int frameLength(byte[] b, int at, int end) {
        if (at + 4 > end) {
            return -1;
        }
        int header = header(b, at);
        return Mp3Remuxer.isFrameHeader(header) ? Mp3Remuxer.frameBytes(header) : 0;
    }

    @Override
    int headerBytes(byte[] b, int at) {
        return 0;
    }

    @Override
    void configure(byte[] b, int at) {
        int header = header(b, at);
        if (!Mp3Remuxer.isFrameHeader(header)) {
            unplayable = ((header >>> 17) & 3) == 2 ? "MPEG audio layer II (MP2)" : "MPEG audio layer I";
            return;
        }
        timescale = Mp3Remuxer.sampleRate(header);
        samplesPerFrame = Mp3Remuxer.samplesPerFrame(header);
        channels = ((header >>> 6) & 3) == 3 ? 1 : 2;
    }

    @Override
    long frameSamples() {
        return samplesPerFrame;
    }

    @Override
    byte[] sampleEntry() {
        return SampleEntryBoxes.mp3(channels, timescale);
    }

    private static int header(byte[] b, int at) {
        return ByteBuffer.wrap(b, at, 4).getInt();
    }

    /** A layer I or II header with a bit rate: MPEG audio, but not MP3. */
    private static boolean otherLayer(int header) {
        int layer = (header >>> 17) & 3;
        int bitrate = (header >>> 12) & 15;
        return (header >>> 21) == 0x7FF && ((header >>> 19) & 3) != 1 && (layer == 2 || layer == 3)
            && bitrate != 0 && bitrate != 15 && ((header >>> 10) & 3) != 3;
    }
}

package io.rondo.content.media.mpegts;

import io.rondo.content.media.isobmff.SampleEntryBoxes;
import io.rondo.content.media.mpegts.MpegTsDemuxer.Stream;

/** AAC in ADTS (ISO/IEC 13818-7 6.2): a 7-byte header (9 with a CRC) before each raw data block. */
final class AacTrack extends AudioTrack {

    private static final int AAC_FRAME_SAMPLES = 1024;
    static final int ADTS_HEADER_BYTES = 7;
    /** The sampling frequencies of ISO/IEC 14496-3 1.6.3.4, by samplingFrequencyIndex. */
    private static final int[] SAMPLING_FREQUENCIES = {96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050,
        16000, 12000, 11025, 8000, 7350};
    private byte[] audioSpecificConfig;
    private int channels;

    AacTrack(Stream stream, SampleFile out) {
        super(stream, out);
    }

    @Override
    int frameAt(byte[] b, int from, int end) {
        for (int i = from; i + 1 < end; i++) {
            if ((b[i] & 0xFF) == 0xFF && (b[i + 1] & 0xF6) == 0xF0) {
                return i;
            }
        }
        return -1;
    }

    @Override
    int frameLength(byte[] b, int at, int end) {
        if (at + ADTS_HEADER_BYTES > end) {
            return -1;
        }
        int length = ((b[at + 3] & 0x03) << 11) | ((b[at + 4] & 0xFF) << 3) | ((b[at + 5] & 0xE0) >> 5);
        return length > headerBytes(b, at) ? length : 0;
    }

    @Override
    int headerBytes(byte[] b, int at) {
        return (b[at + 1] & 1) == 0 ? ADTS_HEADER_BYTES + 2 : ADTS_HEADER_BYTES;
    }

    @Override
    void configure(byte[] b, int at) {
        int objectType = ((b[at + 2] & 0xFF) >> 6) + 1;
        int frequency = (b[at + 2] & 0x3C) >> 2;
        channels = ((b[at + 2] & 0x01) << 2) | ((b[at + 3] & 0xC0) >> 6);
        int blocks = b[at + 6] & 0x03;
        if (frequency >= SAMPLING_FREQUENCIES.length || channels == 0 || blocks != 0) {
            unplayable = "AAC in ADTS frames of " + (blocks + 1) + " raw data blocks, sampling frequency index "
                + frequency + " and channel configuration " + channels;
            return;
        }
        timescale = SAMPLING_FREQUENCIES[frequency];
        int config = (objectType << 11) | (frequency << 7) | (channels << 3);
        audioSpecificConfig = new byte[] {(byte) (config >> 8), (byte) config};
    }

    @Override
    long frameSamples() {
        return AAC_FRAME_SAMPLES;
    }

    @Override
    byte[] sampleEntry() {
        return SampleEntryBoxes.aac(channels == 7 ? 8 : channels, timescale, audioSpecificConfig);
    }
}

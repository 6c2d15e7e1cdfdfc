package io.rondo.content.media;

/**
 * Sample entries (ISO/IEC 14496-12 12.1.3 and 12.2.3) that a remuxer writes for media whose source
 * has none: a visual entry around a decoder configuration record, an {@code mp4a} around an esds,
 * and {@code fLaC} around a dfLa (Encapsulation of FLAC in ISOBMFF, 3.3).
 */
final class SampleEntryBoxes {

    private static final int MP4A_AAC = 0x40;
    private static final int MP4A_MP3 = 0x6B;

    private SampleEntryBoxes() {
    }

    /** {@code avc1} + {@code avcC}, {@code hev1} + {@code hvcC} and the like: {@code record} as the configuration. */
    static byte[] visual(String type, String configType, byte[] record, int width, int height) {
        BoxBuffer b = new BoxBuffer(128 + record.length);
        int entry = b.begin(type);
        b.zeros(6);
        b.u16(1);
        b.zeros(16);
        b.u16(width);
        b.u16(height);
        b.u32(0x0048_0000);
        b.u32(0x0048_0000);
        b.u32(0);
        b.u16(1);
        b.zeros(32);
        b.u16(0x0018);
        b.u16(0xFFFF);
        int config = b.begin(configType);
        b.bytes(record);
        b.end(config);
        b.end(entry);
        return b.toArray();
    }

    /** {@code mp4a} + {@code esds} of AAC with its AudioSpecificConfig. */
    static byte[] aac(int channels, long rate, byte[] audioSpecificConfig) {
        BoxBuffer b = audio("mp4a", channels, 16, rate);
        MatroskaMp4Remuxer.esds(b, MP4A_AAC, audioSpecificConfig);
        b.end(0);
        return b.toArray();
    }

    /** {@code mp4a} + {@code esds} of MP3 (object type 0x6B), which needs no decoder specific info. */
    static byte[] mp3(int channels, long rate) {
        BoxBuffer b = audio("mp4a", channels, 16, rate);
        MatroskaMp4Remuxer.esds(b, MP4A_MP3, null);
        b.end(0);
        return b.toArray();
    }

    /** {@code fLaC} + {@code dfLa} holding {@code metadataBlocks}, each with its header, the last one flagged. */
    static byte[] flac(int channels, int bitsPerSample, long rate, byte[] metadataBlocks) {
        BoxBuffer b = audio("fLaC", channels, bitsPerSample, rate);
        int dfLa = b.beginFull("dfLa", 0, 0);
        b.bytes(metadataBlocks);
        b.end(dfLa);
        b.end(0);
        return b.toArray();
    }

    /** An AudioSampleEntry's fields, version 0, the rate as 16.16 (0 where it does not fit); the caller ends it. */
    private static BoxBuffer audio(String type, int channels, int sampleSize, long rate) {
        BoxBuffer b = new BoxBuffer(128);
        b.begin(type);
        b.zeros(6);
        b.u16(1);
        b.zeros(8);
        b.u16(channels);
        b.u16(sampleSize);
        b.zeros(4);
        b.u32(rate <= 0xFFFF ? rate << 16 : 0);
        return b;
    }
}

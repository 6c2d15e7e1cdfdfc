package io.rondo.content.media.isobmff;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Sample entries (ISO/IEC 14496-12 12.1.3 and 12.2.3) that a remuxer writes for media whose source
 * has none: a visual entry around a decoder configuration record, an {@code mp4a} around an esds,
 * {@code Opus} around a dOps (Encapsulation of Opus in ISOBMFF, 4.3.2) and {@code fLaC} around a dfLa
 * (Encapsulation of FLAC in ISOBMFF, 3.3).
 */
public final class SampleEntryBoxes {

    private static final int MP4A_AAC = 0x40;
    private static final int MP4A_MP3 = 0x6B;
    private static final int AUDIO_STREAM = 5;
    private static final int OPUS_HEAD_BYTES = 19;

    private SampleEntryBoxes() {
    }

    /** {@code avc1} + {@code avcC}, {@code hev1} + {@code hvcC} and the like: {@code record} as the configuration. */
    public static byte[] visual(String type, String configType, byte[] record, int width, int height) {
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
    public static byte[] aac(int channels, long rate, byte[] audioSpecificConfig) {
        BoxBuffer b = audio("mp4a", channels, 16, rate);
        esds(b, MP4A_AAC, audioSpecificConfig);
        b.end(0);
        return b.toArray();
    }

    /** {@code mp4a} + {@code esds} of MP3 (object type 0x6B), which needs no decoder specific info. */
    public static byte[] mp3(int channels, long rate) {
        BoxBuffer b = audio("mp4a", channels, 16, rate);
        esds(b, MP4A_MP3, null);
        b.end(0);
        return b.toArray();
    }

    /** {@code fLaC} + {@code dfLa} holding {@code metadataBlocks}, each with its header, the last one flagged. */
    public static byte[] flac(int channels, int bitsPerSample, long rate, byte[] metadataBlocks) {
        BoxBuffer b = audio("fLaC", channels, bitsPerSample, rate);
        int dfLa = b.beginFull("dfLa", 0, 0);
        b.bytes(metadataBlocks);
        b.end(dfLa);
        b.end(0);
        return b.toArray();
    }

    /** {@code Opus} + {@code dOps} made from {@code opusHead}, an OpusHead as Ogg and Matroska carry it. */
    public static byte[] opus(int channels, long rate, ByteBuffer opusHead) {
        BoxBuffer b = audio("Opus", channels, 16, rate);
        dOps(b, opusHead);
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

    /** The esds of ISO/IEC 14496-14 5.6: an ES_Descriptor with the DecoderConfigDescriptor (14496-1 7.2.6). */
    private static void esds(BoxBuffer b, int objectType, byte[] decoderSpecificInfo) {
        int decoderConfig = 13 + (decoderSpecificInfo == null ? 0 : descriptorLength(decoderSpecificInfo.length));
        int esDescriptor = 3 + descriptorLength(decoderConfig) + descriptorLength(1);
        int esds = b.beginFull("esds", 0, 0);
        descriptorHeader(b, 0x03, esDescriptor);
        b.u16(0);
        b.u8(0);
        descriptorHeader(b, 0x04, decoderConfig);
        b.u8(objectType);
        b.u8((AUDIO_STREAM << 2) | 1);
        b.u24(0);
        b.u32(0);
        b.u32(0);
        if (decoderSpecificInfo != null) {
            descriptorHeader(b, 0x05, decoderSpecificInfo.length);
            b.bytes(decoderSpecificInfo);
        }
        descriptorHeader(b, 0x06, 1);
        b.u8(2);
        b.end(esds);
    }

    /** How many bytes a descriptor of {@code payload} bytes takes: a tag, a 1 to 4 byte length, the payload. */
    private static int descriptorLength(int payload) {
        return 1 + sizeBytes(payload) + payload;
    }

    private static int sizeBytes(int payload) {
        return payload < 1 << 7 ? 1 : payload < 1 << 14 ? 2 : payload < 1 << 21 ? 3 : 4;
    }

    /** A descriptor's tag and the length of its payload, 7 bits a byte, the high bit set on all but the last. */
    private static void descriptorHeader(BoxBuffer b, int tag, int payload) {
        b.u8(tag);
        for (int i = sizeBytes(payload) - 1; i >= 0; i--) {
            b.u8(((payload >>> (7 * i)) & 0x7F) | (i > 0 ? 0x80 : 0));
        }
    }

    /** The dOps box (Encapsulation of Opus in ISOBMFF 4.3.2) from an OpusHead: version 0, fields big-endian. */
    private static void dOps(BoxBuffer b, ByteBuffer codecPrivate) {
        ByteBuffer head = codecPrivate.slice().order(ByteOrder.LITTLE_ENDIAN);
        int channels = head.get(9) & 0xFF;
        int box = b.begin("dOps");
        b.u8(0);
        b.u8(channels);
        b.u16(head.getShort(10) & 0xFFFF);
        b.u32(head.getInt(12) & 0xFFFF_FFFFL);
        b.u16(head.getShort(16));
        int family = head.get(18) & 0xFF;
        b.u8(family);
        if (family != 0) {
            for (int i = 0; i < 2 + channels; i++) {
                b.u8(head.get(OPUS_HEAD_BYTES + i));
            }
        }
        b.end(box);
    }
}

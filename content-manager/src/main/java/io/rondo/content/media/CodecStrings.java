package io.rondo.content.media;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The codecs parameter of a MediaSource type (RFC 6381 and its per-codec registrations) from the
 * decoder configuration records that WebM's CodecPrivate and MP4's sample entries carry.
 */
public final class CodecStrings {

    private CodecStrings() {
    }

    /** {@code avc1.64000B} from an AVCDecoderConfigurationRecord (avcC): profile, compatibility, level. */
    public static String avc(String prefix, FieldCursor avcC) throws MediaFormatException {
        avcC.u8();
        int profile = avcC.u8();
        int compatibility = avcC.u8();
        int level = avcC.u8();
        return String.format(Locale.ROOT, "%s.%02X%02X%02X", prefix, profile, compatibility, level);
    }

    /**
     * {@code hvc1.1.6.L93.B0} from an HEVCDecoderConfigurationRecord (hvcC), ISO/IEC 14496-15 Annex E:
     * profile space and profile, the compatibility flags bit-reversed, tier and level, then the
     * constraint bytes without trailing zeros.
     */
    public static String hevc(String prefix, FieldCursor hvcC) throws MediaFormatException {
        hvcC.u8();
        int b = hvcC.u8();
        int space = b >> 6;
        boolean highTier = (b & 0x20) != 0;
        int profile = b & 0x1F;
        long compatibility = hvcC.u32();
        int[] constraints = new int[6];
        for (int i = 0; i < constraints.length; i++) {
            constraints[i] = hvcC.u8();
        }
        int level = hvcC.u8();
        StringBuilder s = new StringBuilder(prefix).append('.');
        if (space > 0) {
            s.append((char) ('A' + space - 1));
        }
        s.append(profile).append('.')
            .append(Long.toHexString(Integer.reverse((int) compatibility) & 0xFFFF_FFFFL).toUpperCase(Locale.ROOT))
            .append('.').append(highTier ? 'H' : 'L').append(level);
        int last = constraints.length - 1;
        while (last >= 0 && constraints[last] == 0) {
            last--;
        }
        for (int i = 0; i <= last; i++) {
            s.append('.').append(Integer.toHexString(constraints[i]).toUpperCase(Locale.ROOT));
        }
        return s.toString();
    }

    /** {@code av01.0.04M.08} from an AV1CodecConfigurationRecord (av1C): profile, level, tier, depth. */
    public static String av1(FieldCursor av1C) throws MediaFormatException {
        av1C.u8();
        int b1 = av1C.u8();
        int b2 = av1C.u8();
        int profile = b1 >> 5;
        int level = b1 & 0x1F;
        boolean highTier = (b2 & 0x80) != 0;
        int depth = (b2 & 0x40) == 0 ? 8 : (b2 & 0x20) == 0 ? 10 : 12;
        return String.format(Locale.ROOT, "av01.%d.%02d%c.%02d", profile, level, highTier ? 'H' : 'M', depth);
    }

    /** {@code vp09.00.10.08} from a VPCodecConfigurationRecord (vpcC, a full box): profile, level, depth. */
    public static String vp9(FieldCursor vpcC) throws MediaFormatException {
        vpcC.u32();
        int profile = vpcC.u8();
        int level = vpcC.u8();
        int depth = vpcC.u8() >> 4;
        return String.format(Locale.ROOT, "vp09.%02d.%02d.%02d", profile, level, depth);
    }

    /**
     * {@code mp4a.40.2} from an ES_Descriptor (the body of esds after its version and flags): the
     * object type, and for MPEG-4 audio (0x40) the audio object type of its AudioSpecificConfig.
     */
    public static String mp4a(FieldCursor esds) throws MediaFormatException {
        requireTag(esds, 0x03, "ES_Descriptor");
        descriptorSize(esds);
        esds.u16();
        int flags = esds.u8();
        if ((flags & 0x80) != 0) {
            esds.u16();
        }
        if ((flags & 0x40) != 0) {
            esds.skip(esds.u8());
        }
        if ((flags & 0x20) != 0) {
            esds.u16();
        }
        requireTag(esds, 0x04, "DecoderConfigDescriptor");
        descriptorSize(esds);
        int objectType = esds.u8();
        esds.skip(12);
        if (objectType != 0x40) {
            return "mp4a." + Integer.toHexString(objectType).toUpperCase(Locale.ROOT);
        }
        if (esds.remaining() == 0) {
            return "mp4a.40.2";
        }
        requireTag(esds, 0x05, "DecoderSpecificInfo");
        descriptorSize(esds);
        return "mp4a.40." + audioObjectType(esds);
    }

    /** The audio object type at the start of an AudioSpecificConfig (5 bits, 31 escapes to 32 + 6 bits). */
    static int audioObjectType(FieldCursor asc) throws MediaFormatException {
        int b0 = asc.u8();
        int type = b0 >> 3;
        if (type == 31) {
            int b1 = asc.u8();
            type = 32 + (((b0 & 0x07) << 3) | (b1 >> 5));
        }
        return type;
    }

    /** {@code mp4a.40.2} for a Matroska A_AAC track: from CodecPrivate when it has one. */
    static String aacFromCodecPrivate(ByteBuffer codecPrivate, long offset, String what)
        throws MediaFormatException {
        if (codecPrivate == null || codecPrivate.remaining() == 0) {
            return "mp4a.40.2";
        }
        return "mp4a.40." + audioObjectType(new FieldCursor(codecPrivate, offset, what));
    }

    private static void requireTag(FieldCursor in, int tag, String name) throws MediaFormatException {
        long at = in.offset();
        int found = in.u8();
        if (found != tag) {
            throw MediaFormatException.corrupt(in.what() + " should hold an " + name + " (tag " + tag
                + ") at byte " + at + " but holds tag " + found);
        }
    }

    private static void descriptorSize(FieldCursor in) throws MediaFormatException {
        for (int i = 0; i < 4; i++) {
            if ((in.u8() & 0x80) == 0) {
                return;
            }
        }
    }
}

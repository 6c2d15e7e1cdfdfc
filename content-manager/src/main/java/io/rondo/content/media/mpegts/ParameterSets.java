package io.rondo.content.media.mpegts;

import io.rondo.content.media.MediaFormatException;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The decoder configuration records of ISO/IEC 14496-15 made from the parameter sets an Annex B
 * stream carries in band (MPEG-TS, as encoders and tuners write it): {@code avcC} from H.264's
 * SPS and PPS (5.3.3.1), {@code hvcC} from H.265's VPS, SPS and PPS (8.3.3.1), and the picture
 * size both take from the SPS (H.264 7.3.2.1.1, H.265 7.3.2.2), cropping applied.
 */
final class ParameterSets {

    /** H.264 profiles whose SPS carries chroma format and bit depths, and whose avcC ends with them. */
    private static final List<Integer> HIGH_PROFILES = List.of(100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139,
        134, 135);
    private static final int HEVC_PROFILE_TIER_LEVEL_BYTES = 12;
    private static final int HEVC_VPS = 32;
    private static final int HEVC_SPS = 33;
    private static final int HEVC_PPS = 34;

    /**
     * A decoder configuration record and what the sample entry needs beside it.
     *
     * @param record the avcC or hvcC payload
     * @param width  the picture's width in pixels, after cropping
     * @param height its height
     */
    record Config(byte[] record, int width, int height) {
    }

    private ParameterSets() {
    }

    /**
     * The avcC of an H.264 stream (lengthSizeMinusOne 3) from its first SPS and PPS, as NAL units
     * without start codes; the picture size from the SPS.
     *
     * @throws MediaFormatException if the SPS cannot be read
     */
    static Config avc(byte[] sps, byte[] pps) throws MediaFormatException {
        Rbsp r = new Rbsp(sps, 1);
        int profile = r.bits(8);
        r.bits(16);
        r.ue();
        int chromaFormat = 1;
        int lumaDepth = 0;
        int chromaDepth = 0;
        if (HIGH_PROFILES.contains(profile)) {
            chromaFormat = r.ue();
            if (chromaFormat == 3) {
                r.bits(1);
            }
            lumaDepth = r.ue();
            chromaDepth = r.ue();
            r.bits(1);
            if (r.bits(1) == 1) {
                for (int i = 0; i < (chromaFormat != 3 ? 8 : 12); i++) {
                    if (r.bits(1) == 1) {
                        skipScalingList(r, i < 6 ? 16 : 64);
                    }
                }
            }
        }
        r.ue();
        int pocType = r.ue();
        if (pocType == 0) {
            r.ue();
        } else if (pocType == 1) {
            r.bits(1);
            r.se();
            r.se();
            int cycle = r.ue();
            for (int i = 0; i < cycle; i++) {
                r.se();
            }
        }
        r.ue();
        r.bits(1);
        int widthMbs = r.ue() + 1;
        int heightUnits = r.ue() + 1;
        int frameMbsOnly = r.bits(1);
        if (frameMbsOnly == 0) {
            r.bits(1);
        }
        r.bits(1);
        int cropX = 0;
        int cropY = 0;
        if (r.bits(1) == 1) {
            cropX = r.ue() + r.ue();
            cropY = r.ue() + r.ue();
        }
        int unitX = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1;
        int unitY = (chromaFormat == 1 ? 2 : 1) * (2 - frameMbsOnly);
        long width = widthMbs * 16L - (long) unitX * cropX;
        long height = (2 - frameMbsOnly) * heightUnits * 16L - (long) unitY * cropY;

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(1);
        out.write(sps, 1, 3);
        out.write(0xFF);
        out.write(0xE1);
        lengthAndBytes(out, sps);
        out.write(1);
        lengthAndBytes(out, pps);
        if (HIGH_PROFILES.contains(profile)) {
            out.write(0xFC | chromaFormat);
            out.write(0xF8 | lumaDepth & 7);
            out.write(0xF8 | chromaDepth & 7);
            out.write(0);
        }
        return new Config(out.toByteArray(), picture(width, "width"), picture(height, "height"));
    }

    /**
     * The hvcC of an H.265 stream (lengthSizeMinusOne 3) from its first VPS, SPS and PPS, as NAL
     * units without start codes; the picture size from the SPS.
     *
     * @throws MediaFormatException if the SPS cannot be read
     */
    static Config hevc(byte[] vps, byte[] sps, byte[] pps) throws MediaFormatException {
        Rbsp r = new Rbsp(sps, 2);
        r.bits(4);
        int maxSubLayersMinus1 = r.bits(3);
        int temporalIdNested = r.bits(1);
        byte[] profileTierLevel = new byte[HEVC_PROFILE_TIER_LEVEL_BYTES];
        for (int i = 0; i < profileTierLevel.length; i++) {
            profileTierLevel[i] = (byte) r.bits(8);
        }
        boolean[] profilePresent = new boolean[maxSubLayersMinus1];
        boolean[] levelPresent = new boolean[maxSubLayersMinus1];
        for (int i = 0; i < maxSubLayersMinus1; i++) {
            profilePresent[i] = r.bits(1) == 1;
            levelPresent[i] = r.bits(1) == 1;
        }
        if (maxSubLayersMinus1 > 0) {
            for (int i = maxSubLayersMinus1; i < 8; i++) {
                r.bits(2);
            }
        }
        for (int i = 0; i < maxSubLayersMinus1; i++) {
            if (profilePresent[i]) {
                r.bits(32);
                r.bits(32);
                r.bits(24);
            }
            if (levelPresent[i]) {
                r.bits(8);
            }
        }
        r.ue();
        int chromaFormat = r.ue();
        if (chromaFormat == 3) {
            r.bits(1);
        }
        long width = r.ue();
        long height = r.ue();
        if (r.bits(1) == 1) {
            int unitX = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1;
            int unitY = chromaFormat == 1 ? 2 : 1;
            width -= (long) unitX * (r.ue() + r.ue());
            height -= (long) unitY * (r.ue() + r.ue());
        }
        int lumaDepth = r.ue();
        int chromaDepth = r.ue();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(1);
        out.write(profileTierLevel, 0, profileTierLevel.length);
        out.write(0xF0);
        out.write(0);
        out.write(0xFC);
        out.write(0xFC | chromaFormat & 3);
        out.write(0xF8 | lumaDepth & 7);
        out.write(0xF8 | chromaDepth & 7);
        out.write(0);
        out.write(0);
        out.write(((maxSubLayersMinus1 + 1) << 3) | (temporalIdNested << 2) | 3);
        out.write(3);
        array(out, HEVC_VPS, vps);
        array(out, HEVC_SPS, sps);
        array(out, HEVC_PPS, pps);
        return new Config(out.toByteArray(), picture(width, "width"), picture(height, "height"));
    }

    private static void array(ByteArrayOutputStream out, int type, byte[] nal) {
        out.write(0x80 | type);
        out.write(0);
        out.write(1);
        lengthAndBytes(out, nal);
    }

    private static void lengthAndBytes(ByteArrayOutputStream out, byte[] nal) {
        out.write(nal.length >>> 8);
        out.write(nal.length);
        out.write(nal, 0, nal.length);
    }

    private static int picture(long pixels, String what) throws MediaFormatException {
        if (pixels <= 0 || pixels > 0xFFFF) {
            throw MediaFormatException.corrupt("the sequence parameter set gives a picture " + what + " of " + pixels
                + " pixels");
        }
        return (int) pixels;
    }

    private static void skipScalingList(Rbsp r, int size) throws MediaFormatException {
        int last = 8;
        int next = 8;
        for (int j = 0; j < size; j++) {
            if (next != 0) {
                next = (last + r.se() + 256) % 256;
            }
            last = next == 0 ? last : next;
        }
    }

    /**
     * The bits of a NAL unit's payload (RBSP), the emulation prevention bytes ({@code 00 00 03})
     * taken out, read most significant first; Exp-Golomb codes as H.264 9.1 reads them.
     */
    private static final class Rbsp {
        private final byte[] nal;
        private int at;
        private int zeros;
        private int current;
        private int left;

        /** Reads {@code nal} from byte {@code from}, past its NAL unit header. */
        Rbsp(byte[] nal, int from) {
            this.nal = nal;
            this.at = from;
        }

        int bits(int n) throws MediaFormatException {
            int v = 0;
            for (int i = 0; i < n; i++) {
                if (left == 0) {
                    next();
                }
                left--;
                v = (v << 1) | ((current >>> left) & 1);
            }
            return v;
        }

        int ue() throws MediaFormatException {
            int leading = 0;
            while (bits(1) == 0) {
                leading++;
                if (leading > 31) {
                    throw MediaFormatException.corrupt("the parameter set holds an Exp-Golomb code of more than"
                        + " 31 leading zeros");
                }
            }
            return (int) ((1L << leading) - 1 + (leading == 0 ? 0 : bits(leading) & 0xFFFF_FFFFL));
        }

        int se() throws MediaFormatException {
            int k = ue();
            return (k & 1) == 1 ? (k + 1) / 2 : -(k / 2);
        }

        private void next() throws MediaFormatException {
            if (at >= nal.length) {
                throw MediaFormatException.corrupt("the parameter set ends at its byte " + nal.length
                    + " before its fields do");
            }
            int b = nal[at++] & 0xFF;
            if (zeros >= 2 && b == 3) {
                zeros = 0;
                next();
                return;
            }
            zeros = b == 0 ? zeros + 1 : 0;
            current = b;
            left = 8;
        }
    }
}

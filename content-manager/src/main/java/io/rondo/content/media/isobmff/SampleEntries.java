package io.rondo.content.media.isobmff;

import io.rondo.content.media.CodecStrings;
import io.rondo.content.media.FieldCursor;
import io.rondo.content.media.MediaFormatException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;

/**
 * What a sample entry (a child of stsd, ISO/IEC 14496-12 8.5.2) holds: the codec, its name for a
 * person, whether Rondo streams it, and the codecs parameter of a MediaSource type (RFC 6381) from
 * its decoder configuration box.
 *
 * <p>Rondo streams what browsers play from MP4: H.264, H.265, AV1 and VP9 video; AAC, Opus, FLAC and
 * MP3 audio (an {@code mp4a} of object type 0x40 with an AAC audio object type, 0x66 to 0x68 for MPEG-2
 * AAC, 0x69 or 0x6B for MPEG audio; or a QuickTime {@code .mp3}). Object types 0x69 and 0x6B also
 * cover MPEG layer 2, which only the frames themselves tell apart; they are taken as MP3.
 */
public final class SampleEntries {

    /**
     * A sample entry's codec.
     *
     * @param fourcc     the entry's type, e.g. {@code avc1}
     * @param name       the codec for a person, e.g. {@code H.264}
     * @param codecs     the codecs parameter, e.g. {@code avc1.64000D}; the fourcc where Rondo does not stream it
     * @param streamable whether Rondo streams it
     * @param encrypted  whether it is a protected entry (encv, enca), whatever the codec inside
     */
    record Codec(String fourcc, String name, String codecs, boolean streamable, boolean encrypted) {
    }

    private static final Set<String> VISUAL =
        Set.of("avc1", "avc3", "hvc1", "hev1", "vp09", "vp08", "av01", "encv", "mp4v", "jpeg", "mjpa", "mjpb", "s263",
            "h263", "dvh1", "dvhe", "dva1", "dvav", "apch", "apcn", "apcs", "apco", "ap4h", "ap4x", "avc2", "avc4");

    /** AAC audio object types (ISO/IEC 14496-3 1.5.1.1): Main, LC, SSR, LTP, SBR, scalable, ER and PS. */
    private static final Set<Integer> AAC_OBJECT_TYPES = Set.of(1, 2, 3, 4, 5, 6, 17, 19, 20, 22, 23, 29, 39);

    private static final Map<String, String> NAMES = Map.ofEntries(
        Map.entry("mp4v", "MPEG-4 Part 2 video"), Map.entry("jpeg", "Motion JPEG"), Map.entry("mjpa", "Motion JPEG"),
        Map.entry("mjpb", "Motion JPEG"), Map.entry("s263", "H.263"), Map.entry("h263", "H.263"),
        Map.entry("vp08", "VP8"), Map.entry("dvh1", "Dolby Vision"), Map.entry("dvhe", "Dolby Vision"),
        Map.entry("dva1", "Dolby Vision"), Map.entry("dvav", "Dolby Vision"), Map.entry("apch", "Apple ProRes"),
        Map.entry("apcn", "Apple ProRes"), Map.entry("apcs", "Apple ProRes"), Map.entry("apco", "Apple ProRes"),
        Map.entry("ap4h", "Apple ProRes"), Map.entry("ap4x", "Apple ProRes"), Map.entry("avc2", "H.264 (avc2)"),
        Map.entry("avc4", "H.264 (avc4)"), Map.entry("ac-3", "AC-3 (Dolby Digital)"),
        Map.entry("ec-3", "E-AC-3 (Dolby Digital Plus)"), Map.entry("ac-4", "AC-4"), Map.entry("fLaC", "FLAC"),
        Map.entry("alac", "Apple Lossless"), Map.entry("samr", "AMR-NB"), Map.entry("sawb", "AMR-WB"),
        Map.entry("lpcm", "PCM"), Map.entry("ipcm", "PCM"), Map.entry("sowt", "PCM"), Map.entry("twos", "PCM"),
        Map.entry("raw ", "PCM"), Map.entry("in24", "PCM"), Map.entry("in32", "PCM"), Map.entry("fl32", "PCM"),
        Map.entry("fl64", "PCM"), Map.entry("ima4", "IMA ADPCM"), Map.entry("ulaw", "G.711 mu-law"),
        Map.entry("alaw", "G.711 A-law"), Map.entry("dtsc", "DTS"), Map.entry("dtsh", "DTS-HD"),
        Map.entry("dtsl", "DTS-HD"),
        Map.entry("mha1", "MPEG-H 3D Audio"), Map.entry("mhm1", "MPEG-H 3D Audio"));

    private SampleEntries() {
    }

    /** The codec of a track's sample entry. */
    public static Codec describe(TrackHeader track) throws MediaFormatException {
        byte[] entry = track.sampleEntry();
        ByteBuffer buf = ByteBuffer.wrap(entry);
        String type = IsoBoxes.fourcc(buf, 4);
        if (type.equals("encv") || type.equals("enca")) {
            return new Codec(type, "encrypted media", type, false, true);
        }
        FieldCursor data = new FieldCursor(buf.slice(8, entry.length - 8), Math.max(0, track.entryOffset()) + 8,
            track.entryOrigin());
        FieldCursor config = config(type, data, track.entryOrigin());
        switch (type) {
            case "avc1", "avc3" -> {
                if (config == null) {
                    throw MediaFormatException.corrupt(track.entryOrigin() + " has no avcC");
                }
                return new Codec(type, "H.264", CodecStrings.avc(type, config), true, false);
            }
            case "hvc1", "hev1" -> {
                return new Codec(type, "H.265", config == null ? type : CodecStrings.hevc(type, config), true, false);
            }
            case "av01" -> {
                return new Codec(type, "AV1", config == null ? type : CodecStrings.av1(config), true, false);
            }
            case "vp09" -> {
                return new Codec(type, "VP9", config == null ? type : CodecStrings.vp9(config), true, false);
            }
            case "Opus" -> {
                return new Codec(type, "Opus", "opus", true, false);
            }
            case ".mp3" -> {
                return new Codec(type, "MP3", "mp3", true, false);
            }
            case "fLaC" -> {
                return new Codec(type, "FLAC", "flac", true, false);
            }
            case "mp4a" -> {
                if (config == null) {
                    throw MediaFormatException.corrupt(track.entryOrigin() + " has no esds");
                }
                config.skip(4);
                return mp4a(CodecStrings.mp4a(config));
            }
            default -> {
                return new Codec(type, NAMES.getOrDefault(type, "an unknown codec"), type, false, false);
            }
        }
    }

    /** An mp4a entry by its codecs parameter, {@code mp4a.40.2} or {@code mp4a.6B}. */
    private static Codec mp4a(String codecs) {
        String objectType = codecs.substring("mp4a.".length());
        if (objectType.startsWith("40.")) {
            int audioObjectType = Integer.parseInt(objectType.substring(3));
            if (AAC_OBJECT_TYPES.contains(audioObjectType)) {
                return new Codec("mp4a", "AAC", codecs, true, false);
            }
            return new Codec("mp4a", "MPEG-4 audio object type " + audioObjectType, codecs, false, false);
        }
        return switch (objectType) {
            case "66", "67", "68" -> new Codec("mp4a", "MPEG-2 AAC", codecs, true, false);
            case "69", "6B" -> new Codec("mp4a", "MP3", codecs, true, false);
            case "A5" -> new Codec("mp4a", "AC-3 (Dolby Digital)", codecs, false, false);
            case "A6" -> new Codec("mp4a", "E-AC-3 (Dolby Digital Plus)", codecs, false, false);
            case "A9", "AA", "AB", "AC" -> new Codec("mp4a", "DTS", codecs, false, false);
            default -> new Codec("mp4a", "MPEG-4 systems audio object type 0x" + objectType, codecs, false, false);
        };
    }

    /**
     * The decoder configuration box inside a sample entry (avcC, hvcC, av1C, vpcC, esds), or null:
     * the entry's children follow the visual (70 bytes) or audio (20, 36 or 56 bytes) fields.
     */
    private static FieldCursor config(String type, FieldCursor data, String origin) throws MediaFormatException {
        String configType = switch (type) {
            case "avc1", "avc3" -> "avcC";
            case "hvc1", "hev1" -> "hvcC";
            case "vp09" -> "vpcC";
            case "av01" -> "av1C";
            case "mp4a" -> "esds";
            default -> "";
        };
        if (configType.isEmpty()) {
            return null;
        }
        data.skip(8);
        if (VISUAL.contains(type)) {
            data.skip(70);
        } else {
            int version = data.u16();
            data.skip(18 + (version == 1 ? 16 : version == 2 ? 36 : 0));
        }
        FieldCursor[] config = {null};
        IsoBoxes.children(data, origin, (box, d) -> {
            if (box.type().equals(configType) && config[0] == null) {
                config[0] = d;
            }
        });
        return config[0];
    }
}

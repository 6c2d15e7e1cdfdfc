package io.rondo.server.hls;

import io.rondo.content.model.MediaIndex;

import java.util.List;
import java.util.Locale;

/**
 * Which stored media HLS carries: fragmented MP4 (CMAF) whose every codec Apple's HLS authoring
 * specification lists (H.264, HEVC, Dolby Vision, AV1; AAC in every profile, MP3, AC-3, E-AC-3,
 * FLAC, ALAC, Opus). WebM, MP3 files and anything else are refused, saying why and what to do.
 */
public final class HlsCodecs {

    /** The codecs strings' prefixes (RFC 6381 sample entries) HLS in fMP4 carries. */
    private static final List<String> CARRIED = List.of("avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe", "av01",
        "mp4a", "ac-3", "ec-3", "flac", "alac", "opus");

    private HlsCodecs() {
    }

    /** Why HLS cannot carry {@code media}, or null if it can. */
    public static String refusal(String name, MediaIndex media) {
        if (media == null) {
            return name + " is discrete data, not a clip: download it";
        }
        if (!media.container().equals("mp4")) {
            return name + " is " + media.container().toUpperCase(Locale.ROOT) + ", which HLS cannot carry: HLS "
                + "carries fragmented MP4. Make an MP4 copy and add it beside this one, e.g. "
                + "ffmpeg -i IN -c:v libx264 -c:a aac -movflags +frag_keyframe+empty_moov+default_base_moof OUT.mp4";
        }
        for (String codec : codecs(media)) {
            String entry = codec.split("\\.", 2)[0].toLowerCase(Locale.ROOT);
            if (!CARRIED.contains(entry)) {
                return name + " holds " + codec + ", which HLS does not carry (it carries H.264, HEVC, AV1, AAC, "
                    + "MP3, AC-3, E-AC-3, FLAC, ALAC and Opus). Make an H.264 and AAC copy, e.g. "
                    + "ffmpeg -i IN -c:v libx264 -c:a aac OUT.mp4";
            }
        }
        return null;
    }

    /** The media's codecs, one string each ({@code avc1.42C01E}, {@code mp4a.40.2}). */
    static List<String> codecs(MediaIndex media) {
        return List.of(media.codecs().split(",")).stream().map(String::trim).filter(codec -> !codec.isEmpty())
            .toList();
    }
}

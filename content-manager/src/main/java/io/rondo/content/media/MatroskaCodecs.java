package io.rondo.content.media;

import io.rondo.content.media.MatroskaDemuxer.Track;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Which Matroska codecs a browser plays from WebM through MediaSource (VP8, VP9 and AV1 video,
 * Vorbis and Opus audio), their codecs strings, and for any other codec the note that tells the
 * person ingesting what the codec is and the ffmpeg command that makes the file streamable.
 */
final class MatroskaCodecs {

    private static final Map<String, String> NAMES = Map.ofEntries(
        Map.entry("V_MPEG4/ISO/AVC", "H.264/AVC"), Map.entry("V_MPEGH/ISO/HEVC", "H.265/HEVC"),
        Map.entry("V_MPEG1", "MPEG-1 video"), Map.entry("V_MPEG2", "MPEG-2 video"),
        Map.entry("V_MPEG4/ISO/SP", "MPEG-4 Part 2"), Map.entry("V_MPEG4/ISO/ASP", "MPEG-4 Part 2"),
        Map.entry("V_MPEG4/ISO/AP", "MPEG-4 Part 2"), Map.entry("V_MS/VFW/FOURCC", "a Video for Windows codec"),
        Map.entry("V_THEORA", "Theora"), Map.entry("V_PRORES", "Apple ProRes"), Map.entry("V_FFV1", "FFV1"),
        Map.entry("V_MJPEG", "Motion JPEG"), Map.entry("V_UNCOMPRESSED", "uncompressed video"),
        Map.entry("V_DIRAC", "Dirac"), Map.entry("V_QUICKTIME", "a QuickTime video codec"),
        Map.entry("A_AC3", "Dolby Digital (AC-3)"), Map.entry("A_EAC3", "Dolby Digital Plus (E-AC-3)"),
        Map.entry("A_TRUEHD", "Dolby TrueHD"), Map.entry("A_MLP", "MLP"), Map.entry("A_FLAC", "FLAC"),
        Map.entry("A_ALAC", "Apple Lossless (ALAC)"), Map.entry("A_MPEG/L3", "MP3"),
        Map.entry("A_MPEG/L2", "MPEG-1 Audio Layer II"), Map.entry("A_MPEG/L1", "MPEG-1 Audio Layer I"),
        Map.entry("A_MS/ACM", "a Windows ACM audio codec"), Map.entry("A_TTA1", "TTA"),
        Map.entry("A_WAVPACK4", "WavPack"), Map.entry("A_QUICKTIME", "a QuickTime audio codec"));

    private MatroskaCodecs() {
    }

    /** Whether a browser plays this track's codec from WebM. */
    static boolean playsInWebm(Track t) {
        return switch (t.codecId()) {
            case "V_VP8", "V_VP9", "V_AV1", "A_VORBIS", "A_OPUS" -> true;
            default -> false;
        };
    }

    /** {@code vp9}, {@code av01.0.04M.08}, {@code opus}: a playable track's part of the codecs string. */
    static String codecsString(Track t) throws MediaFormatException {
        return switch (t.codecId()) {
            case "V_VP8" -> "vp8";
            case "V_VP9" -> "vp9";
            case "V_AV1" -> t.codecPrivate() == null ? "av01" : CodecStrings.av1(new FieldCursor(t.codecPrivate(),
                t.codecPrivateOffset(), "the CodecPrivate of track " + t.number() + " at byte "
                + t.codecPrivateOffset()));
            case "A_VORBIS" -> "vorbis";
            case "A_OPUS" -> "opus";
            default -> throw new IllegalArgumentException(t.codecId() + " does not play from WebM");
        };
    }

    /** {@code H.264/AVC}: what a person calls the codec. */
    static String humanName(String codecId) {
        String name = NAMES.get(codecId);
        if (name != null) {
            return name;
        }
        if (codecId.startsWith("A_AAC")) {
            return "AAC";
        }
        if (codecId.startsWith("A_DTS")) {
            return "DTS";
        }
        if (codecId.startsWith("A_PCM")) {
            return "PCM";
        }
        if (codecId.startsWith("V_REAL") || codecId.startsWith("A_REAL")) {
            return "RealMedia";
        }
        return "a codec Rondo does not know";
    }

    /**
     * Why the audio and video of {@code tracks} cannot be streamed as WebM and the ffmpeg command
     * that makes {@code file} streamable, or null when every audio and video track plays from WebM.
     * H.264 with AAC (or either alone) needs only a remux to MP4; anything else is re-encoded to
     * VP9 and Opus, copying the side that already plays.
     */
    static String unplayableNote(List<Track> tracks, Path file) {
        List<String> reasons = new ArrayList<>();
        boolean videoPlays = true;
        boolean audioPlays = true;
        boolean mp4Copy = true;
        boolean compressed = false;
        for (Track t : tracks) {
            if (!t.isVideo() && !t.isAudio()) {
                continue;
            }
            if (!playsInWebm(t)) {
                reasons.add("track " + t.number() + " is " + t.codecId() + " (" + humanName(t.codecId()) + ")");
                videoPlays &= !t.isVideo();
                audioPlays &= !t.isAudio();
            } else if (t.compressed()) {
                reasons.add("track " + t.number() + " (" + t.codecId() + ") is compressed by its muxer"
                    + " (ContentCompression)");
                compressed = true;
            }
            mp4Copy &= t.isVideo() ? t.codecId().equals("V_MPEG4/ISO/AVC") : t.codecId().startsWith("A_AAC");
        }
        if (reasons.isEmpty()) {
            return null;
        }
        String command;
        if (mp4Copy && !compressed) {
            command = FfmpegCommands.convert(file, "-c copy", "mp4");
        } else {
            StringJoiner options = new StringJoiner(" ");
            if (tracks.stream().anyMatch(Track::isVideo)) {
                options.add("-c:v").add(videoPlays ? "copy" : "libvpx-vp9");
            }
            if (tracks.stream().anyMatch(Track::isAudio)) {
                options.add("-c:a").add(audioPlays ? "copy" : "libopus");
            }
            command = FfmpegCommands.convert(file, options.toString(), "webm");
        }
        return String.join(", ", reasons) + ", which no browser plays from WebM; to stream it: " + command;
    }
}

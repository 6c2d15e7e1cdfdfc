package io.rondo.content.media.matroska;

import io.rondo.content.media.CodecStrings;
import io.rondo.content.media.FfmpegCommands;
import io.rondo.content.media.FieldCursor;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.matroska.MatroskaDemuxer.Track;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Which Matroska codecs a browser plays from WebM through MediaSource (VP8, VP9 and AV1 video,
 * Vorbis and Opus audio), their codecs strings, and for any other codec the note that tells the
 * person ingesting what the codec is and the ffmpeg command that makes the file streamable; and the
 * note naming the tracks, subtitles and others, that the stored copy leaves out.
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

    /** {@code vp9, opus}: the codecs string of tracks that all play from WebM. */
    static String codecs(List<Track> tracks) throws MediaFormatException {
        StringJoiner codecs = new StringJoiner(", ");
        for (Track t : tracks) {
            codecs.add(codecsString(t));
        }
        return codecs.toString();
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
     * Why the audio and video of {@code tracks} cannot be streamed as WebM and the fastest ffmpeg
     * command that makes {@code file} streamable, or null when every audio and video track plays
     * from WebM. What plays is copied, not re-encoded: video that plays from WebM stays WebM, with
     * its audio copied or encoded to Opus; otherwise the file becomes MP4, with H.264, H.265, AV1
     * and VP9 video and AAC, MP3 and Opus audio copied, and the rest encoded to H.264 and AAC (far
     * quicker to encode than VP9).
     */
    static String unplayableNote(List<Track> tracks, Path file) {
        boolean videoInWebm = true;
        boolean audioInWebm = true;
        boolean videoInMp4 = true;
        boolean audioInMp4 = true;
        boolean video = false;
        boolean audio = false;
        boolean compressed = false;
        for (Track t : tracks) {
            if (t.isVideo()) {
                video = true;
                videoInWebm &= playsInWebm(t);
                videoInMp4 &= playsInMp4(t);
            } else if (t.isAudio()) {
                audio = true;
                audioInWebm &= playsInWebm(t);
                audioInMp4 &= playsInMp4(t);
            }
            compressed |= (t.isVideo() || t.isAudio()) && t.compressed();
        }
        if (videoInWebm && audioInWebm && !compressed) {
            return null;
        }
        boolean webm = videoInWebm && (audioInWebm || !video || !audioInMp4);
        List<String> reasons = new ArrayList<>();
        for (Track t : tracks) {
            if ((t.isVideo() || t.isAudio()) && !(webm ? playsInWebm(t) : playsInMp4(t))) {
                reasons.add("track " + t.number() + " is " + t.codecId() + " (" + humanName(t.codecId()) + ")");
            }
        }
        String why = reasons.isEmpty() ? "" : String.join(", ", reasons) + ", which browsers do not play";
        for (Track t : tracks) {
            if ((t.isVideo() || t.isAudio()) && t.compressed()) {
                why += (why.isEmpty() ? "" : "; ") + "track " + t.number() + " (" + t.codecId() + ") is compressed by"
                    + " its muxer (ContentCompression), which browsers cannot undo";
            }
        }
        String videoCodec = webm || videoInMp4 ? "copy" : "libx264";
        String audioCodec = webm ? (audioInWebm ? "copy" : "libopus") : audioInMp4 ? "copy" : "aac";
        String options = !audio ? "-c:v " + videoCodec : !video ? "-c:a " + audioCodec
            : videoCodec.equals(audioCodec) ? "-c " + videoCodec : "-c:v " + videoCodec + " -c:a " + audioCodec;
        if (tracks.stream().anyMatch(t -> !t.isVideo() && !t.isAudio())) {
            options += " -sn";
        }
        return why + "; to stream it: " + FfmpegCommands.convert(file, options, webm ? "webm" : "mp4");
    }

    /** Whether a browser plays this track's codec from MP4, once ffmpeg copies it there. */
    private static boolean playsInMp4(Track t) {
        String id = t.codecId();
        return id.equals("V_MPEG4/ISO/AVC") || id.equals("V_MPEGH/ISO/HEVC") || id.equals("V_AV1")
            || id.equals("V_VP9") || id.startsWith("A_AAC") || id.equals("A_MPEG/L3") || id.equals("A_OPUS");
    }

    /**
     * What the stored copy of the Matroska file {@code file} leaves out: its subtitle and other
     * tracks that are neither audio nor video, each named, with the ffmpeg command that keeps the
     * first subtitles beside it; or null where it has none.
     */
    static String droppedTracks(List<Track> tracks, Path file) {
        List<String> dropped = new ArrayList<>();
        boolean subtitles = false;
        String extension = "srt";
        for (Track t : tracks) {
            if (t.isVideo() || t.isAudio()) {
                continue;
            }
            boolean subtitle = t.type() == MatroskaDemuxer.SUBTITLE;
            dropped.add("track " + t.number() + " (" + t.codecId() + ", " + subtitleName(t.codecId(), subtitle) + ")");
            if (subtitle && !subtitles) {
                subtitles = true;
                extension = subtitleExtension(t.codecId());
            }
        }
        if (dropped.isEmpty()) {
            return null;
        }
        String what = String.join(", ", dropped) + (dropped.size() == 1 ? " is" : " are")
            + " not in the stored copy, which holds the audio and video only";
        if (!subtitles) {
            return what;
        }
        return what + "; to keep the subtitles beside it: " + FfmpegCommands.convert(file, "-map 0:s:0 -c copy",
            extension);
    }

    private static String subtitleName(String codecId, boolean subtitle) {
        return switch (codecId) {
            case "S_TEXT/UTF8" -> "SubRip subtitles";
            case "S_TEXT/ASS", "S_TEXT/SSA", "S_ASS", "S_SSA" -> "ASS/SSA subtitles";
            case "S_TEXT/WEBVTT" -> "WebVTT subtitles";
            case "S_HDMV/PGS" -> "Blu-ray (PGS) subtitles";
            case "S_VOBSUB" -> "DVD (VobSub) subtitles";
            default -> subtitle ? "subtitles" : "neither audio nor video";
        };
    }

    private static String subtitleExtension(String codecId) {
        return switch (codecId) {
            case "S_TEXT/ASS", "S_TEXT/SSA", "S_ASS", "S_SSA" -> "ass";
            case "S_TEXT/WEBVTT" -> "vtt";
            case "S_HDMV/PGS" -> "sup";
            case "S_VOBSUB" -> "mkv";
            default -> "srt";
        };
    }
}

package io.rondo.content.media;

import io.rondo.content.media.MatroskaDemuxer.Track;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The notes ingest gives about a file it streams, where the person ingesting should know more:
 * a codec not every browser plays, and what the stored copy leaves out.
 */
final class MediaNotes {

    private MediaNotes() {
    }

    /** The notes that are not null, as one, or null where there are none. */
    static String join(String... notes) {
        String joined = Stream.of(notes).filter(Objects::nonNull).collect(Collectors.joining("; "));
        return joined.isEmpty() ? null : joined;
    }

    /**
     * That the video of {@code file} is H.265, which Chromium and Firefox do not play (Safari does,
     * and Chrome and Edge where the system has a hardware decoder), and the ffmpeg command that
     * makes it play everywhere, copying the audio; or null where no track is H.265.
     *
     * @param hevcTracks the track numbers whose video is H.265
     */
    static String hevc(List<Long> hevcTracks, boolean audio, Path file) {
        if (hevcTracks.isEmpty()) {
            return null;
        }
        return (hevcTracks.size() == 1 ? "track " + hevcTracks.get(0) : "tracks " + hevcTracks) + " is H.265/HEVC,"
            + " which Chromium and Firefox do not play (Safari does, and Chrome and Edge where the system has a"
            + " hardware decoder); it is streamed as it is; to play it in every browser: "
            + FfmpegCommands.convert(file, "-c:v libx264" + (audio ? " -c:a copy" : ""), "mp4");
    }

    /** The H.265 note for the tracks of an MP4. */
    static String hevc(List<SampleTrack> tracks, Path file) throws MediaFormatException {
        List<Long> hevc = new ArrayList<>();
        boolean audio = false;
        for (SampleTrack t : tracks) {
            String fourcc = SampleEntries.describe(t.header()).fourcc();
            if (fourcc.equals("hvc1") || fourcc.equals("hev1")) {
                hevc.add(t.header().trackId());
            }
            audio |= !t.video();
        }
        return hevc(hevc, audio, file);
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

    /**
     * That the stored copy of the MP4 {@code file} leaves out its subtitle tracks, each named, with
     * the ffmpeg command that keeps the first beside it as SubRip; or null where it has none.
     */
    static String droppedSubtitles(List<String> tracks, Path file) {
        if (tracks.isEmpty()) {
            return null;
        }
        return "the subtitles of " + String.join(", ", tracks) + " are not in the stored copy, which holds the audio"
            + " and video only; to keep them beside it: " + FfmpegCommands.convert(file, "-map 0:s:0", "srt");
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

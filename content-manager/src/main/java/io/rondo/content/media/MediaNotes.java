package io.rondo.content.media;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The notes ingest gives about a file it streams, where the person ingesting should know more:
 * a codec not every browser plays, and what the stored copy leaves out.
 */
public final class MediaNotes {

    private MediaNotes() {
    }

    /** The notes that are not null, as one, or null where there are none. */
    public static String join(String... notes) {
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
    public static String hevc(List<Long> hevcTracks, boolean audio, Path file) {
        if (hevcTracks.isEmpty()) {
            return null;
        }
        return (hevcTracks.size() == 1 ? "track " + hevcTracks.get(0) : "tracks " + hevcTracks) + " is H.265/HEVC,"
            + " which Chromium and Firefox do not play (Safari does, and Chrome and Edge where the system has a"
            + " hardware decoder); it is streamed as it is; to play it in every browser: "
            + FfmpegCommands.convert(file, "-c:v libx264" + (audio ? " -c:a copy" : ""), "mp4");
    }

    /**
     * That the stored copy of the MP4 {@code file} leaves out its subtitle tracks, each named, with
     * the ffmpeg command that keeps the first beside it as SubRip; or null where it has none.
     */
    public static String droppedSubtitles(List<String> tracks, Path file) {
        if (tracks.isEmpty()) {
            return null;
        }
        return "the subtitles of " + String.join(", ", tracks) + " are not in the stored copy, which holds the audio"
            + " and video only; to keep them beside it: " + FfmpegCommands.convert(file, "-map 0:s:0", "srt");
    }
}

package io.rondo.content.media.isobmff;

import io.rondo.content.media.MediaFile;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.MediaNotes;
import io.rondo.content.media.Preparation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prepares an MP4 (any ISO BMFF file: progressive with the moov first or last, or fragmented with
 * fragments of any length) for streaming: remuxed at ingest into a fragmented MP4 of one moof +
 * mdat per round T (papers/001 Section 1.1), so that every fragment plays for one round whatever
 * the encoder's keyframe interval, with every sample's bytes copied untouched. Audio and video
 * tracks are kept; text, timecode and other tracks are dropped. A track whose edit list starts its
 * presentation late in its media (a cut made with {@code -c copy}) is trimmed to it ({@link EditListCut}).
 *
 * <p>Media a browser cannot play from MP4 (a codec other than H.264, H.265, AV1, VP9, AAC, Opus and
 * MP3, see {@link SampleEntries}) or that is encrypted is a discrete object, with a note that names
 * the codec and gives the ffmpeg command that makes the file streamable.
 */
public final class Mp4Remuxer {

    private Mp4Remuxer() {
    }

    /**
     * What ingest makes of the ISO BMFF file {@code file}: the stored media to write, or a discrete
     * object with a note when it cannot be streamed.
     *
     * @param roundNs the round length T, one fragment's presentation time
     * @throws MediaFormatException if the file is truncated or corrupt, naming what and where
     * @throws IOException          if it cannot be read
     */
    public static Preparation prepare(Path file, long roundNs) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        Mp4Demuxer.Source source;
        try (MediaFile in = MediaFile.open(file)) {
            source = Mp4Demuxer.read(in);
        }
        String note = unstreamable(source.tracks());
        if (note != null) {
            return new Preparation.Discrete(note);
        }
        if (source.note() != null) {
            return new Preparation.Discrete(source.note());
        }
        if (source.tracks().isEmpty()) {
            return new Preparation.Discrete("the MP4 holds no audio or video samples: there is nothing to stream");
        }
        List<SampleTrack> tracks = new ArrayList<>();
        for (SampleTrack track : source.tracks()) {
            tracks.add(EditListCut.trim(track));
        }
        return new Preparation.Continuous(FragmentedMp4Writer.plan(file, tracks, source.brands(), roundNs),
            MediaNotes.join(hevc(tracks, file), MediaNotes.droppedSubtitles(source.subtitles(), file)));
    }

    /** Why these tracks cannot be streamed, and what makes them streamable; null if they can be. */
    static String unstreamable(List<SampleTrack> tracks) throws MediaFormatException {
        List<String> problems = new ArrayList<>();
        boolean encrypted = false;
        boolean badVideo = false;
        boolean badAudio = false;
        for (SampleTrack track : tracks) {
            SampleEntries.Codec codec = SampleEntries.describe(track.header());
            if (codec.streamable()) {
                continue;
            }
            String what = "track " + track.header().trackId();
            if (codec.encrypted()) {
                encrypted = true;
                problems.add(what + " is encrypted ('" + codec.fourcc() + "')");
            } else {
                boolean video = track.video();
                badVideo |= video;
                badAudio |= !video;
                problems.add(what + " is " + codec.name() + " ('" + codec.fourcc() + "'"
                    + (codec.fourcc().equals("mp4a") ? ", " + codec.codecs() : "") + ")");
            }
        }
        if (problems.isEmpty()) {
            return null;
        }
        String what = String.join(" and ", problems);
        if (encrypted) {
            return what + ": Rondo streams clear media only; ingest the unencrypted original";
        }
        String command = "ffmpeg -i IN -c:v " + (badVideo ? "libx264" : "copy") + " -c:a " + (badAudio ? "aac" : "copy")
            + " OUT.mp4";
        return what + ", which browsers do not play from MP4 (Rondo streams H.264, H.265, AV1 and VP9 video with"
            + " AAC, Opus or MP3 audio); make it streamable with: " + command;
    }

    /** The H.265 note for the tracks of an MP4. */
    private static String hevc(List<SampleTrack> tracks, Path file) throws MediaFormatException {
        List<Long> hevc = new ArrayList<>();
        boolean audio = false;
        for (SampleTrack t : tracks) {
            String fourcc = SampleEntries.describe(t.header()).fourcc();
            if (fourcc.equals("hvc1") || fourcc.equals("hev1")) {
                hevc.add(t.header().trackId());
            }
            audio |= !t.video();
        }
        return MediaNotes.hevc(hevc, audio, file);
    }
}

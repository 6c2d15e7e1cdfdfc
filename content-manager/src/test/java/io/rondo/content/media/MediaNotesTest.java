package io.rondo.content.media;

import io.rondo.content.remux.MediaIndexers;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What ingest tells the person ingesting about media, made by ffmpeg: the fastest command that
 * makes a file streamable (copying what plays, encoding only the rest), that H.265 does not play
 * in every browser, and which tracks the stored copy leaves out.
 */
class MediaNotesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final List<String> VIDEO = List.of("-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=3");
    private static final List<String> AUDIO = List.of("-f", "lavfi", "-i", "sine=frequency=440:duration=3");

    @TempDir
    Path dir;

    @Test
    void h264WithAc3CopiesTheVideoAndEncodesOnlyTheAudioToAac() throws IOException {
        Path mkv = make("film.mkv", "-c:v", "libx264", "-c:a", "ac3");

        String note = assertInstanceOf(Preparation.Discrete.class, MediaIndexers.prepare(mkv, SECOND)).note();

        assertEquals("track 2 is A_AC3 (Dolby Digital (AC-3)), which browsers do not play; to stream it: ffmpeg -i"
            + " film.mkv -c:v copy -c:a aac film.mp4", note);
        Path converted = runNote(note);
        try (StoredMedia media = assertInstanceOf(Preparation.Continuous.class,
            MediaIndexers.prepare(converted, SECOND)).media()) {
            assertTrue(media.index().codecs().matches("avc1\\.\\w+, mp4a\\.40\\.2"), media.index().codecs());
        }
    }

    @Test
    void vp9WithAc3StaysWebmWithTheAudioEncodedToOpus() throws IOException {
        Path mkv = make("film.mkv", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "ac3");

        String note = assertInstanceOf(Preparation.Discrete.class, MediaIndexers.prepare(mkv, SECOND)).note();

        assertTrue(note.endsWith("to stream it: ffmpeg -i film.mkv -c:v copy -c:a libopus film.webm"), note);
    }

    @Test
    void hevcStreamsWithANoteThatChromiumDoesNotPlayIt() throws IOException {
        assumeEncoder("libx265");
        for (String name : List.of("hevc.mp4", "hevc.mkv")) {
            Path file = make(name, "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a",
                "aac");

            Preparation.Continuous prepared = assertInstanceOf(Preparation.Continuous.class,
                MediaIndexers.prepare(file, SECOND));
            prepared.media().close();

            assertTrue(prepared.note().startsWith("track 1 is H.265/HEVC, which Chromium and Firefox do not play"),
                name + ": " + prepared.note());
            assertTrue(prepared.note().endsWith("-c:v libx264 -c:a copy " + (name.endsWith(".mp4")
                ? "streamable-hevc.mp4" : "hevc.mp4")), prepared.note());
        }
    }

    @Test
    void aSubtitleTrackLeftOutIsNamedWithTheCommandThatKeepsIt() throws IOException {
        Path srt = Files.writeString(dir.resolve("in.srt"), "1\n00:00:00,500 --> 00:00:02,000\nHello\n");
        Path mkv = make("film.mkv", "-i", srt.toString(), "-map", "0", "-map", "1", "-map", "2", "-c:v",
            "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus", "-c:s", "srt");

        Preparation.Continuous prepared = assertInstanceOf(Preparation.Continuous.class,
            MediaIndexers.prepare(mkv, SECOND));
        prepared.media().close();

        assertEquals("track 3 (S_TEXT/UTF8, SubRip subtitles) is not in the stored copy, which holds the audio and"
            + " video only; to keep the subtitles beside it: ffmpeg -i film.mkv -map 0:s:0 -c copy film.srt",
            prepared.note());
        Path kept = runNote(prepared.note());
        assertTrue(Files.readString(kept).contains("Hello"), "the subtitles, kept beside");
    }

    @Test
    void anMp4SubtitleTrackLeftOutIsNamedWithTheCommandThatKeepsIt() throws IOException {
        Path srt = Files.writeString(dir.resolve("in.srt"), "1\n00:00:00,500 --> 00:00:02,000\nHello\n");
        Path mp4 = make("film.mp4", "-i", srt.toString(), "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264",
            "-c:a", "aac", "-c:s", "mov_text");

        Preparation.Continuous prepared = assertInstanceOf(Preparation.Continuous.class,
            MediaIndexers.prepare(mp4, SECOND));
        prepared.media().close();

        assertEquals("the subtitles of track 3 ('tx3g') are not in the stored copy, which holds the audio and video"
            + " only; to keep them beside it: ffmpeg -i film.mp4 -map 0:s:0 film.srt", prepared.note());
        assertTrue(Files.readString(runNote(prepared.note())).contains("Hello"), "the subtitles, kept beside");
    }

    @Test
    void anMp3sTagsAndCoverArtAreNamedWithTheCommandThatKeepsTheCover() throws IOException {
        Ffmpeg.assumeInstalled();
        Path cover = dir.resolve("cover.jpg");
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=64x64:duration=1", "-frames:v", "1", cover.toString());
        Path mp3 = dir.resolve("song.mp3");
        ffmpeg("-f", "lavfi", "-i", "sine=duration=3", "-i", cover.toString(), "-map", "0", "-map", "1", "-c:a",
            "libmp3lame", "-c:v", "copy", "-id3v2_version", "3", "-write_id3v1", "1", "-metadata", "title=Café song",
            "-metadata", "artist=The Testers", "-metadata", "album=Tones", "-metadata", "date=2026",
            "-metadata:s:v", "comment=Cover (front)", mp3.toString());

        Preparation.Continuous prepared = assertInstanceOf(Preparation.Continuous.class,
            MediaIndexers.prepare(mp3, SECOND));
        prepared.media().close();

        String note = prepared.note();
        assertTrue(note.startsWith("its ID3 tags are not in the stored copy, which holds the audio frames only: title"
            + " \"Café song\", artist \"The Testers\", album \"Tones\", year \"2026\", cover art (image/jpeg, "), note);
        assertTrue(note.endsWith("; to keep the cover art beside it: ffmpeg -i song.mp3 -an -c:v copy song.jpg"), note);
        assertArrayEquals(Files.readAllBytes(cover), Files.readAllBytes(runNote(note)), "the cover art, kept beside");
    }

    @Test
    void anMp3WithoutTagsHasNoNote() throws IOException {
        Ffmpeg.assumeInstalled();
        Path mp3 = dir.resolve("bare.mp3");
        ffmpeg("-f", "lavfi", "-i", "sine=duration=2", "-c:a", "libmp3lame", "-id3v2_version", "0", mp3.toString());

        Preparation.Continuous prepared = assertInstanceOf(Preparation.Continuous.class,
            MediaIndexers.prepare(mp3, SECOND));
        prepared.media().close();

        assertNull(prepared.note());
    }

    private static void ffmpeg(String... options) {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-v", "error", "-y"));
        command.addAll(Arrays.asList(options));
        Ffmpeg.Run run = Ffmpeg.run(command.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
    }

    static Stream<Arguments> otherContainers() {
        return Stream.of(
            Arguments.of("h264.avi", List.of("-c:v", "libx264", "-c:a", "libmp3lame"), "video/x-msvideo",
                "an AVI file (video 'H264', audio MP3), which browsers do not stream; to stream it: ffmpeg -i h264.avi"
                    + " -c copy h264.mp4"),
            Arguments.of("mpeg4.avi", List.of("-c:v", "mpeg4", "-c:a", "ac3"), "video/x-msvideo",
                "an AVI file (video 'FMP4', audio AC-3), which browsers do not stream; to stream it: ffmpeg -i"
                    + " mpeg4.avi -c:v libx264 -c:a aac mpeg4.mp4"),
            Arguments.of("clip.flv", List.of("-c:v", "libx264", "-c:a", "aac"), "video/x-flv",
                "a Flash Video (FLV) file (video H.264, audio AAC), which browsers do not stream; to stream it: ffmpeg"
                    + " -i clip.flv -c copy clip.mp4"),
            Arguments.of("clip.wmv", List.of(), "video/x-ms-asf", "a Windows Media (ASF: WMV, WMA) file, which"
                + " browsers do not stream; to stream it: ffmpeg -i clip.wmv -c:v libx264 -c:a aac clip.mp4"),
            Arguments.of("dvd.mpg", List.of("-f", "vob"), "video/mpeg", "an MPEG program stream (MPEG-1 or MPEG-2"
                + " video, as DVDs and older cameras write), which browsers do not stream; to stream it: ffmpeg -i"
                + " dvd.mpg -c:v libx264 -c:a aac dvd.mp4"),
            Arguments.of("tone.aac", List.of("-vn", "-c:a", "aac"), null, "AAC in ADTS (a raw AAC stream), which Rondo"
                + " streams from MP4; to stream it: ffmpeg -i tone.aac -c copy tone.m4a"),
            Arguments.of("tone.aiff", List.of("-vn"), "audio/aiff", "an AIFF file (PCM audio), which browsers do not"
                + " stream; to stream it: ffmpeg -i tone.aiff -c:a aac tone.m4a"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherContainers")
    void mediaInAnotherContainerIsNotedWithTheCommandThatMakesItStream(String name, List<String> options,
                                                                       String mimeType, String expected)
        throws IOException {
        Path file = make(name, options.toArray(String[]::new));

        String note = assertInstanceOf(Preparation.Discrete.class, MediaIndexers.prepare(file, SECOND)).note();

        assertEquals(expected, note);
        if (mimeType != null) {
            assertEquals(mimeType, MediaIndexers.probe(file));
        }
        Preparation converted = MediaIndexers.prepare(runNote(note), SECOND);
        assertInstanceOf(Preparation.Continuous.class, converted, "the command's file streams").media().close();
    }

    /** A 3 s clip of ffmpeg's test picture and a tone, encoded with {@code options}. */
    private Path make(String name, String... options) {
        Ffmpeg.assumeInstalled();
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-v", "error", "-y"));
        command.addAll(VIDEO);
        command.addAll(AUDIO);
        command.addAll(Arrays.asList(options));
        Path file = dir.resolve(name);
        command.add(file.toString());
        Ffmpeg.Run run = Ffmpeg.run(command.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
        return file;
    }

    private static void assumeEncoder(String encoder) {
        Ffmpeg.assumeInstalled();
        assumeTrue(Ffmpeg.run("ffmpeg", "-hide_banner", "-encoders").out().contains(" " + encoder + " "),
            "ffmpeg has no " + encoder + " encoder");
    }

    /** Runs the note's ffmpeg command in the test's folder; returns the file it made. */
    private Path runNote(String note) {
        List<String> words = new ArrayList<>(Arrays.asList(note.substring(note.lastIndexOf("ffmpeg -i ")).split(" ")));
        Path out = dir.resolve(words.get(words.size() - 1));
        words.replaceAll(w -> w.contains(".") && !w.startsWith("-") ? dir.resolve(w).toString() : w);
        words.addAll(1, List.of("-v", "error", "-nostdin", "-y"));
        Ffmpeg.Run run = Ffmpeg.run(words.toArray(String[]::new));
        assertEquals(0, run.exit(), run.err());
        return out;
    }
}

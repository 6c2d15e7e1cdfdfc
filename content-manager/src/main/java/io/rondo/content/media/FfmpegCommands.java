package io.rondo.content.media;

import java.nio.file.Path;

/**
 * The ffmpeg command lines that ingest's notes suggest for media Rondo cannot stream as it is,
 * written with the file's own name so that the person ingesting can paste them.
 */
public final class FfmpegCommands {

    private FfmpegCommands() {
    }

    /** {@code ffmpeg -i 'my film.mkv' -c copy 'my film.mp4'}: {@code file} through {@code options} to a new type. */
    public static String convert(Path file, String options, String extension) {
        String in = file.getFileName() == null ? "IN" : file.getFileName().toString();
        int dot = in.lastIndexOf('.');
        String out = (dot > 0 ? in.substring(0, dot) : in) + "." + extension;
        if (out.equals(in)) {
            out = "streamable-" + out;
        }
        return "ffmpeg -i " + shellWord(in) + " " + options + " " + shellWord(out);
    }

    /** A file name as one shell word. */
    private static String shellWord(String s) {
        return s.matches("[A-Za-z0-9._+/-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}

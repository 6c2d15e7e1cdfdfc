package io.rondo.content.remux;

import io.rondo.content.media.FfmpegCommands;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * WAV files (RIFF {@code WAVE}, and the RF64 and BW64 forms of broadcast recorders): no browser
 * streams them through MediaSource, so ingest keeps them discrete, with a note that names what the
 * {@code fmt } chunk says they hold and the ffmpeg command that makes them streamable: to FLAC,
 * lossless, for PCM (Rondo streams a {@code .flac}), a copy for MP3 in WAV, Opus otherwise.
 */
final class WaveFiles {

    private static final int PCM = 1;
    private static final int FLOAT = 3;
    private static final int MP3 = 0x55;
    private static final int EXTENSIBLE = 0xFFFE;
    private static final int CHUNK_HEADER_BYTES = 8;
    private static final Map<Integer, String> CODECS = Map.of(2, "Microsoft ADPCM", 6, "G.711 A-law",
        7, "G.711 mu-law", 0x11, "IMA ADPCM", 0x50, "MPEG audio layer II", MP3, "MP3", 0x2000, "AC-3 (Dolby Digital)",
        0x2001, "DTS");

    private WaveFiles() {
    }

    /** Whether {@code head}, a file's first bytes, starts a WAV file. */
    static boolean sniff(ByteBuffer head) {
        String riff = ascii(head, 0);
        return (riff.equals("RIFF") || riff.equals("RF64") || riff.equals("BW64")) && ascii(head, 8).equals("WAVE");
    }

    /** The note for the WAV file {@code file}, whose first bytes are {@code head}. */
    static String note(ByteBuffer head, Path file) {
        ByteBuffer b = head.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int at = 12;
        while (at + CHUNK_HEADER_BYTES <= b.limit()) {
            long size = b.getInt(at + 4) & 0xFFFF_FFFFL;
            if (ascii(b, at).equals("fmt ") && size >= 16 && at + CHUNK_HEADER_BYTES + 16 <= b.limit()) {
                int body = at + CHUNK_HEADER_BYTES;
                int format = b.getShort(body) & 0xFFFF;
                if (format == EXTENSIBLE && size >= 40 && body + 26 <= b.limit()) {
                    format = b.getShort(body + 24) & 0xFFFF;
                }
                int channels = b.getShort(body + 2) & 0xFFFF;
                long rate = b.getInt(body + 4) & 0xFFFF_FFFFL;
                int bits = b.getShort(body + 14) & 0xFFFF;
                return note(format, channels, rate, bits, file);
            }
            at += CHUNK_HEADER_BYTES + (int) Math.min(size + (size & 1), Integer.MAX_VALUE - at);
        }
        return "the WAV file has no fmt chunk in its first " + head.limit() + " bytes, which browsers do not stream;"
            + " to stream it: " + FfmpegCommands.convert(file, "-c:a libopus", "webm");
    }

    private static String note(int format, int channels, long rate, int bits, Path file) {
        String layout = String.format(Locale.ROOT, "%d channel%s, %d Hz", channels, channels == 1 ? "" : "s", rate);
        String what;
        String command;
        if (format == PCM || format == FLOAT) {
            what = bits + "-bit " + (format == FLOAT ? "floating-point " : "") + "PCM (" + layout + ")";
            command = "; to stream it losslessly as FLAC: " + FfmpegCommands.convert(file, "-c:a flac", "flac");
        } else if (format == MP3) {
            what = "MP3 (" + layout + ")";
            command = "; to stream it, copy it out: " + FfmpegCommands.convert(file, "-c:a copy", "mp3");
        } else {
            what = CODECS.getOrDefault(format, String.format(Locale.ROOT, "audio of format tag 0x%04X", format))
                + " (" + layout + ")";
            command = "; to stream it: " + FfmpegCommands.convert(file, "-c:a libopus", "webm");
        }
        return "the WAV file holds " + what + ", which browsers do not stream from WAV" + command;
    }

    private static String ascii(ByteBuffer b, int at) {
        if (b.limit() < at + 4) {
            return "";
        }
        char[] c = new char[4];
        for (int i = 0; i < 4; i++) {
            c[i] = (char) (b.get(at + i) & 0xFF);
        }
        return new String(c);
    }
}

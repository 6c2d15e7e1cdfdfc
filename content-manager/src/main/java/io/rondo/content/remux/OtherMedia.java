package io.rondo.content.remux;

import io.rondo.content.media.FfmpegCommands;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Media in containers Rondo does not stream (AVI, Flash Video, Windows Media, MPEG program
 * streams as DVDs and older cameras write them, AAC in ADTS, AIFF, AMR), known by their first
 * bytes: stored as discrete data, with a note naming the container and, where its header says,
 * the codecs, and the fastest ffmpeg command that makes the file streamable, copying H.264 video
 * and AAC or MP3 audio into MP4 and encoding only the rest (to H.264 and AAC).
 */
final class OtherMedia {

    private static final int AVI_HEADER_BYTES = 64 << 10;

    private OtherMedia() {
    }

    /**
     * The note for {@code file}, whose first bytes are {@code head}, or null where they are none of
     * these containers.
     */
    static String note(Path file, ByteBuffer head) throws IOException {
        ByteBuffer b = head.duplicate().order(ByteOrder.BIG_ENDIAN);
        String container = container(b);
        if (container == null) {
            return null;
        }
        return switch (container) {
            case "avi" -> avi(file, headerList(file));
            case "flv" -> flv(file, b);
            case "asf" -> streamable("a Windows Media (ASF: WMV, WMA) file", false, false, true, file);
            case "mpeg-ps" -> streamable("an MPEG program stream (MPEG-1 or MPEG-2 video, as DVDs and older"
                + " cameras write)", false, false, true, file);
            case "aiff" -> "an AIFF file (PCM audio), which browsers do not stream; to stream it: "
                + FfmpegCommands.convert(file, "-c:a aac", "m4a");
            case "amr" -> "an AMR file (AMR speech audio), which browsers do not play; to stream it: "
                + FfmpegCommands.convert(file, "-c:a aac", "m4a");
            default -> "AAC in ADTS (a raw AAC stream), which Rondo streams from MP4; to stream it: "
                + FfmpegCommands.convert(file, "-c copy", "m4a");
        };
    }

    /** The MIME type of these containers by their first bytes, or null. */
    static String mimeType(ByteBuffer head) {
        String container = container(head.duplicate().order(ByteOrder.BIG_ENDIAN));
        return container == null ? null : switch (container) {
            case "avi" -> "video/x-msvideo";
            case "flv" -> "video/x-flv";
            case "asf" -> "video/x-ms-asf";
            case "mpeg-ps" -> "video/mpeg";
            case "aiff" -> "audio/aiff";
            case "amr" -> "audio/amr";
            default -> "audio/aac";
        };
    }

    private static String container(ByteBuffer b) {
        int n = b.remaining();
        if (n >= 12 && ascii(b, 0, 4).equals("RIFF") && ascii(b, 8, 4).equals("AVI ")) {
            return "avi";
        }
        if (n >= 9 && ascii(b, 0, 3).equals("FLV") && b.get(3) == 1) {
            return "flv";
        }
        if (n >= 16 && b.getLong(0) == 0x3026B2758E66CF11L && b.getLong(8) == 0xA6D900AA0062CE6CL) {
            return "asf";
        }
        if (n >= 4 && b.getInt(0) == 0x0000_01BA) {
            return "mpeg-ps";
        }
        if (n >= 12 && ascii(b, 0, 4).equals("FORM") && ascii(b, 8, 3).equals("AIF")) {
            return "aiff";
        }
        if (n >= 5 && ascii(b, 0, 5).equals("#!AMR")) {
            return "amr";
        }
        return isAdts(b, 0) && isAdts(b, adtsLength(b, 0)) ? "adts" : null;
    }

    /** Whether an ADTS header (sync, layer 0, a sampling frequency index in use) starts at {@code at}. */
    private static boolean isAdts(ByteBuffer b, int at) {
        return at >= 0 && at + 7 <= b.limit() && (b.getShort(at) & 0xFFF6) == 0xFFF0
            && ((b.get(at + 2) >>> 2) & 0x0F) < 13 && adtsLength(b, at) - at >= 7;
    }

    /** Where the ADTS frame at {@code at} ends: the next one's header. */
    private static int adtsLength(ByteBuffer b, int at) {
        return at + 7 > b.limit() ? -1 : at + ((b.get(at + 3) & 3) << 11 | (b.get(at + 4) & 0xFF) << 3
            | (b.get(at + 5) & 0xFF) >>> 5);
    }

    /** The first {@value #AVI_HEADER_BYTES} bytes of an AVI: its header list, past the index space ffmpeg reserves. */
    private static ByteBuffer headerList(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return ByteBuffer.wrap(in.readNBytes(AVI_HEADER_BYTES));
        }
    }

    /** AVI: the codecs from each stream header's format (strf) in the header list. */
    private static String avi(Path file, ByteBuffer b) {
        String video = null;
        String audio = null;
        String type = "";
        for (int at = 12; at + 12 <= b.limit(); ) {
            String id = ascii(b, at, 4);
            int size = Integer.reverseBytes(b.getInt(at + 4));
            if (size < 0 || id.equals("LIST") && ascii(b, at + 8, 4).equals("movi")) {
                break;
            }
            if (id.equals("LIST")) {
                at += 12;
                continue;
            }
            if (id.equals("strh") && at + 12 <= b.limit()) {
                type = ascii(b, at + 8, 4);
            } else if (id.equals("strf") && type.equals("vids") && at + 28 <= b.limit()) {
                video = ascii(b, at + 8 + 16, 4).strip();
            } else if (id.equals("strf") && type.equals("auds") && at + 10 <= b.limit()) {
                audio = waveFormat(Short.reverseBytes(b.getShort(at + 8)) & 0xFFFF);
            }
            at += 8 + size + (size & 1);
        }
        boolean h264 = video != null && (video.equalsIgnoreCase("H264") || video.equalsIgnoreCase("avc1")
            || video.equalsIgnoreCase("X264"));
        boolean copyAudio = audio == null || audio.equals("MP3") || audio.equals("AAC");
        String codecs = video == null && audio == null ? "" : " ("
            + (video == null ? "" : "video '" + video + "'") + (video != null && audio != null ? ", " : "")
            + (audio == null ? "" : "audio " + audio) + ")";
        return streamable("an AVI file" + codecs, h264 || video == null, copyAudio, video != null, file);
    }

    /** FLV: the codecs from its first audio and video tags. */
    private static String flv(Path file, ByteBuffer b) {
        int at = b.getInt(5) + 4;
        String video = null;
        String audio = null;
        while (at + 12 <= b.limit() && (video == null || audio == null)) {
            int type = b.get(at) & 0x1F;
            int size = b.getInt(at) & 0xFF_FFFF;
            int first = b.get(at + 11) & 0xFF;
            if (type == 8 && audio == null) {
                audio = switch (first >>> 4) {
                    case 2, 14 -> "MP3";
                    case 10 -> "AAC";
                    case 11 -> "Speex";
                    case 4, 5, 6 -> "Nellymoser";
                    case 0, 3 -> "PCM";
                    default -> "ADPCM or G.711";
                };
            } else if (type == 9 && video == null) {
                video = (first & 0x80) != 0 ? "enhanced (H.265, AV1 or VP9)" : switch (first & 0x0F) {
                    case 7 -> "H.264";
                    case 2 -> "Sorenson H.263";
                    case 4, 5 -> "VP6";
                    case 3, 6 -> "Screen video";
                    default -> "an old Flash codec";
                };
            }
            at += 11 + size + 4;
        }
        boolean hasVideo = (b.get(4) & 1) != 0 || video != null;
        String codecs = video == null && audio == null ? "" : " ("
            + (video == null ? "" : "video " + video) + (video != null && audio != null ? ", " : "")
            + (audio == null ? "" : "audio " + audio) + ")";
        return streamable("a Flash Video (FLV) file" + codecs, video == null || video.equals("H.264"),
            audio == null || audio.equals("MP3") || audio.equals("AAC"), hasVideo, file);
    }

    private static String waveFormat(int tag) {
        return switch (tag) {
            case 0x0055 -> "MP3";
            case 0x00FF, 0x1600, 0x1601, 0x1602, 0x1610, 0x706D -> "AAC";
            case 0x0050 -> "MPEG audio";
            case 0x2000 -> "AC-3";
            case 0x2001 -> "DTS";
            case 0x0001, 0x0003, 0xFFFE -> "PCM";
            case 0x0002, 0x0011 -> "ADPCM";
            case 0x0160, 0x0161, 0x0162 -> "Windows Media Audio";
            default -> "format 0x" + Integer.toHexString(tag);
        };
    }

    /** The note: what the file is, and the command that copies what MP4 plays and encodes the rest. */
    private static String streamable(String what, boolean copyVideo, boolean copyAudio, boolean video, Path file) {
        String options = !video ? "-c:a " + (copyAudio ? "copy" : "aac")
            : copyVideo && copyAudio ? "-c copy"
            : "-c:v " + (copyVideo ? "copy" : "libx264") + " -c:a " + (copyAudio ? "copy" : "aac");
        return what + ", which browsers do not stream; to stream it: "
            + FfmpegCommands.convert(file, options, video ? "mp4" : "m4a");
    }

    private static String ascii(ByteBuffer b, int at, int length) {
        byte[] bytes = new byte[length];
        b.get(at, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}

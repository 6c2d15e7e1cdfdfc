package io.rondo.content.media.mp3;

import io.rondo.content.media.FfmpegCommands;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ID3 tags of an MP3 (ID3v2.2 to 2.4 at the start, ID3v1 at the end), read for the ingest note:
 * the stored copy holds the audio frames alone ({@link Mp3Remuxer} says why), so the note names
 * what it leaves out, the title, artist, album, year, track and genre with their values and each
 * picture with its type and size, and gives the ffmpeg command that keeps the cover art beside it.
 */
final class Id3Tags {

    /** The most of an ID3v2 tag read: the text frames come first, a larger picture is sized from its header. */
    private static final int MAX_TAG_BYTES = 16 << 20;
    private static final int HEADER_BYTES = 10;
    private static final int ID3V1_BYTES = 128;
    private static final int MAX_VALUE_CHARS = 80;

    private static final Map<String, String> TEXT = Map.ofEntries(
        Map.entry("TIT2", "title"), Map.entry("TT2", "title"), Map.entry("TPE1", "artist"), Map.entry("TP1", "artist"),
        Map.entry("TALB", "album"), Map.entry("TAL", "album"), Map.entry("TDRC", "year"), Map.entry("TYER", "year"),
        Map.entry("TYE", "year"), Map.entry("TRCK", "track"), Map.entry("TRK", "track"), Map.entry("TCON", "genre"),
        Map.entry("TCO", "genre"));

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> pictures = new ArrayList<>();
    private final Set<String> otherFrames = new TreeSet<>();

    private Id3Tags() {
    }

    /**
     * What the stored copy of the MP3 {@code file} leaves out of its tags, or null where it has none.
     *
     * @throws IOException if the file cannot be read
     */
    static String note(Path file) throws IOException {
        Id3Tags tags = new Id3Tags();
        boolean tagged;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            tagged = tags.readId3v2(in) | tags.readId3v1(in);
        }
        if (!tagged) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        tags.values.forEach((key, value) -> parts.add(key + " \"" + value + "\""));
        parts.addAll(tags.pictures);
        if (!tags.otherFrames.isEmpty()) {
            parts.add("its " + String.join(", ", tags.otherFrames)
                + (tags.otherFrames.size() == 1 ? " frame" : " frames"));
        }
        String note = "its ID3 tags are not in the stored copy, which holds the audio frames only"
            + (parts.isEmpty() ? "" : ": " + String.join(", ", parts));
        if (tags.pictures.isEmpty()) {
            return note;
        }
        return note + "; to keep the cover art beside it: " + FfmpegCommands.convert(file, "-an -c:v copy",
            tags.pictures.get(0).contains("image/png") ? "png" : "jpg");
    }

    private boolean readId3v2(FileChannel in) throws IOException {
        ByteBuffer header = read(in, 0, HEADER_BYTES);
        if (header.remaining() < HEADER_BYTES || header.get(0) != 'I' || header.get(1) != 'D' || header.get(2) != '3') {
            return false;
        }
        int version = header.get(3);
        int flags = header.get(5);
        int size = syncsafe(header, 6);
        if ((flags & 0x80) != 0 || version < 2 || version > 4) {
            otherFrames.add("ID3v2." + version + (((flags & 0x80) != 0) ? " unsynchronised" : ""));
            return true;
        }
        ByteBuffer tag = read(in, HEADER_BYTES, Math.min(size, MAX_TAG_BYTES));
        int pos = 0;
        if ((flags & 0x40) != 0 && version >= 3) {
            pos = version == 4 ? syncsafe(tag, 0) : tag.getInt(0) + 4;
        }
        int idBytes = version == 2 ? 3 : 4;
        int frameHeader = version == 2 ? 6 : 10;
        while (pos >= 0 && pos + frameHeader <= tag.limit() && tag.get(pos) != 0) {
            String id = ascii(tag, pos, idBytes);
            int length = version == 2 ? (tag.getInt(pos + 2) >>> 8) : version == 4 ? syncsafe(tag, pos + 4)
                : tag.getInt(pos + 4);
            if (length < 0 || (long) pos + frameHeader + length > size) {
                break;
            }
            int body = pos + frameHeader;
            ByteBuffer frame = tag.slice(body, Math.max(0, Math.min(length, tag.limit() - body)));
            frame(id, frame, length);
            pos = body + length;
        }
        return true;
    }

    private void frame(String id, ByteBuffer frame, int length) {
        String key = TEXT.get(id);
        if (key != null && frame.remaining() > 1) {
            String value = text(frame, 1, frame.remaining() - 1, frame.get(0)).replace('\0', '/');
            if (!value.isBlank()) {
                values.putIfAbsent(key, value.length() > MAX_VALUE_CHARS ? value.substring(0, MAX_VALUE_CHARS) + "..."
                    : value);
            }
        } else if ((id.equals("APIC") || id.equals("PIC")) && frame.remaining() > 1) {
            String mime;
            int typeAt;
            if (id.equals("PIC")) {
                String format = ascii(frame, 1, Math.min(3, frame.remaining() - 1));
                mime = "image/" + (format.equalsIgnoreCase("PNG") ? "png" : "jpeg");
                typeAt = 4;
            } else {
                int end = 1;
                while (end < frame.remaining() && frame.get(end) != 0) {
                    end++;
                }
                mime = ascii(frame, 1, end - 1);
                if (mime.isEmpty() || !mime.contains("/")) {
                    mime = "image/" + (mime.isEmpty() ? "jpeg" : mime.toLowerCase(Locale.ROOT));
                }
                typeAt = end + 1;
            }
            boolean front = typeAt < frame.remaining() && frame.get(typeAt) == 3;
            pictures.add((front ? "cover art" : "a picture") + " (" + mime + ", " + kib(length) + ")");
        } else if (id.chars().allMatch(c -> c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) {
            otherFrames.add(id);
        }
    }

    private boolean readId3v1(FileChannel in) throws IOException {
        long size = in.size();
        if (size < ID3V1_BYTES) {
            return false;
        }
        ByteBuffer tag = read(in, size - ID3V1_BYTES, ID3V1_BYTES);
        if (!ascii(tag, 0, 3).equals("TAG")) {
            return false;
        }
        String[] keys = {"title", "artist", "album", "year"};
        int[] at = {3, 33, 63, 93};
        int[] width = {30, 30, 30, 4};
        for (int i = 0; i < keys.length; i++) {
            String value = text(tag, at[i], width[i], (byte) 0).strip();
            if (!value.isEmpty()) {
                values.putIfAbsent(keys[i], value);
            }
        }
        return true;
    }

    private static String text(ByteBuffer b, int from, int length, byte encoding) {
        Charset charset = switch (encoding) {
            case 1 -> StandardCharsets.UTF_16;
            case 2 -> StandardCharsets.UTF_16BE;
            case 3 -> StandardCharsets.UTF_8;
            default -> StandardCharsets.ISO_8859_1;
        };
        byte[] bytes = new byte[length];
        b.get(from, bytes);
        String s = new String(bytes, charset);
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '\0' || s.charAt(end - 1) == ' ')) {
            end--;
        }
        return s.substring(0, end);
    }

    private static String ascii(ByteBuffer b, int from, int length) {
        byte[] bytes = new byte[Math.max(0, length)];
        b.get(from, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static int syncsafe(ByteBuffer b, int at) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 7) | (b.get(at + i) & 0x7F);
        }
        return v;
    }

    private static String kib(long bytes) {
        return bytes < 1024 ? bytes + " bytes" : (bytes + 512) / 1024 + " KiB";
    }

    private static ByteBuffer read(FileChannel in, long pos, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(n);
        int read;
        do {
            read = in.read(buf, pos + buf.position());
        } while (read > 0 && buf.hasRemaining());
        return buf.flip();
    }
}

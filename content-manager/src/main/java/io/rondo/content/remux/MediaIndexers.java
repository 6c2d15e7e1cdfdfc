package io.rondo.content.remux;

import io.rondo.content.media.MediaFormatException;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.flac.FlacRemuxer;
import io.rondo.content.media.isobmff.IsoBoxes;
import io.rondo.content.media.isobmff.Mp4Remuxer;
import io.rondo.content.media.matroska.Ebml;
import io.rondo.content.media.matroska.WebmRemuxer;
import io.rondo.content.media.mp3.Mp3Remuxer;
import io.rondo.content.media.mpegts.MpegTsRemuxer;
import io.rondo.content.media.ogg.OggWebmRemuxer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where ingest decides what a file is: the content decides the container, never the file name.
 * MP4 and QuickTime, WebM and Matroska, MPEG-TS, Ogg (Vorbis, Opus), FLAC and MP3 are continuous
 * objects, remuxed into fragments of one round each (papers/001 Section 1.1); WAV and anything else
 * is a discrete object, with a note where it is media that says how to make it streamable
 * ({@link WaveFiles}, {@link OtherMedia}).
 */
public final class MediaIndexers {

    private static final int SNIFF_BYTES = 512;

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
        Map.entry("html", "text/html"), Map.entry("htm", "text/html"), Map.entry("txt", "text/plain"),
        Map.entry("css", "text/css"), Map.entry("js", "text/javascript"), Map.entry("mjs", "text/javascript"),
        Map.entry("json", "application/json"), Map.entry("svg", "image/svg+xml"), Map.entry("png", "image/png"),
        Map.entry("jpg", "image/jpeg"), Map.entry("jpeg", "image/jpeg"), Map.entry("gif", "image/gif"),
        Map.entry("pdf", "application/pdf"), Map.entry("webm", "video/webm"), Map.entry("mp4", "video/mp4"),
        Map.entry("m4a", "audio/mp4"), Map.entry("xml", "application/xml"), Map.entry("ico", "image/x-icon"));

    private MediaIndexers() {
    }

    /**
     * What ingest makes of {@code file}: a continuous object, remuxed so that each round of
     * presentation is one media segment, or a discrete one, with a note when the file is media
     * that cannot be streamed as it is.
     *
     * @param roundNs the round length T that fragments are cut to, e.g. 1 s
     * @throws MediaFormatException if the file is media but truncated or corrupt
     * @throws IOException          if the file cannot be read
     */
    public static Preparation prepare(Path file, long roundNs) throws IOException {
        return prepare(file, roundNs, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * {@link #prepare(Path, long)}, with {@code scratch} the folder where a remuxer that rewrites
     * samples (MPEG-TS) keeps them until the stored copy is written: a file as large as the media,
     * unlinked as soon as it is opened, so that nothing of it outlives the ingest.
     */
    public static Preparation prepare(Path file, long roundNs, Path scratch) throws IOException {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("the round length must be positive, was " + roundNs + " ns");
        }
        ByteBuffer head;
        try (InputStream in = Files.newInputStream(file)) {
            head = ByteBuffer.wrap(in.readNBytes(Mp3Remuxer.SNIFF_BYTES));
        }
        if (Ebml.sniff(head)) {
            return WebmRemuxer.prepare(file, roundNs);
        }
        if (IsoBoxes.sniff(head)) {
            return Mp4Remuxer.prepare(file, roundNs);
        }
        if (MpegTsRemuxer.sniff(head)) {
            return MpegTsRemuxer.prepare(file, roundNs, scratch);
        }
        if (WaveFiles.sniff(head)) {
            return new Preparation.Discrete(WaveFiles.note(head, file));
        }
        if (OggWebmRemuxer.sniff(head)) {
            return OggWebmRemuxer.prepare(file, roundNs);
        }
        long flac = FlacRemuxer.streamStart(head, file);
        if (flac >= 0) {
            return FlacRemuxer.prepare(file, flac, roundNs);
        }
        if (Mp3Remuxer.sniff(head)) {
            return Mp3Remuxer.prepare(file, roundNs);
        }
        return new Preparation.Discrete(OtherMedia.note(file, head));
    }

    /**
     * The MIME type of {@code file} by its first bytes, else by its extension: media and images by
     * their magic numbers, HTML and SVG by their opening tag, CSS, JavaScript and JSON by extension,
     * other text as {@code text/plain}, anything else {@code application/octet-stream}.
     */
    public static String probe(Path file) throws IOException {
        byte[] head;
        try (InputStream stream = Files.newInputStream(file)) {
            head = stream.readNBytes(SNIFF_BYTES);
        }
        String byContent = byMagic(head);
        if (byContent != null) {
            return byContent;
        }
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String byName = dot < 0 ? null : BY_EXTENSION.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        if (byName != null) {
            return byName;
        }
        return looksLikeText(head) ? "text/plain" : "application/octet-stream";
    }

    private static String byMagic(byte[] head) {
        ByteBuffer buf = ByteBuffer.wrap(head);
        if (Ebml.sniff(buf)) {
            return "video/webm";
        }
        if (IsoBoxes.sniff(buf)) {
            String brand = head.length >= 12 ? IsoBoxes.fourcc(buf, 8) : "";
            return brand.equals("M4A ") ? "audio/mp4" : brand.equals("qt  ") ? "video/quicktime" : "video/mp4";
        }
        String other = OtherMedia.mimeType(buf);
        if (other != null) {
            return other;
        }
        String ascii = new String(head, StandardCharsets.ISO_8859_1);
        if (ascii.startsWith("\u0089PNG\r\n\u001a\n")) {
            return "image/png";
        }
        if (ascii.startsWith("\u00FF\u00D8\u00FF")) {
            return "image/jpeg";
        }
        if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) {
            return "image/gif";
        }
        if (ascii.startsWith("%PDF-")) {
            return "application/pdf";
        }
        String text = ascii.replaceFirst("^(\u00EF\u00BB\u00BF)?\\s*", "").toLowerCase(Locale.ROOT);
        if (text.startsWith("<!doctype html") || text.startsWith("<html")) {
            return "text/html";
        }
        if (text.startsWith("<svg") || text.startsWith("<?xml") && text.contains("<svg")) {
            return "image/svg+xml";
        }
        return null;
    }

    private static boolean looksLikeText(byte[] head) {
        for (byte b : head) {
            if (b == 0 || b > 0 && b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f') {
                return false;
            }
        }
        return true;
    }
}

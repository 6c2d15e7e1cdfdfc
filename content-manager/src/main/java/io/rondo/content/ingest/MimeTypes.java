package io.rondo.content.ingest;

import java.util.Map;
import java.util.Set;

/** Content types by extension, for discrete objects; continuous ones take theirs from their container. */
public final class MimeTypes {

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
        Map.entry("html", "text/html; charset=utf-8"), Map.entry("htm", "text/html; charset=utf-8"),
        Map.entry("txt", "text/plain; charset=utf-8"), Map.entry("md", "text/markdown; charset=utf-8"),
        Map.entry("css", "text/css; charset=utf-8"), Map.entry("js", "text/javascript; charset=utf-8"),
        Map.entry("mjs", "text/javascript; charset=utf-8"), Map.entry("json", "application/json"),
        Map.entry("xml", "application/xml"), Map.entry("csv", "text/csv; charset=utf-8"),
        Map.entry("pdf", "application/pdf"), Map.entry("png", "image/png"), Map.entry("jpg", "image/jpeg"),
        Map.entry("jpeg", "image/jpeg"), Map.entry("gif", "image/gif"), Map.entry("webp", "image/webp"),
        Map.entry("svg", "image/svg+xml"), Map.entry("ico", "image/x-icon"), Map.entry("wasm", "application/wasm"),
        Map.entry("webm", "video/webm"), Map.entry("mkv", "video/x-matroska"), Map.entry("mp4", "video/mp4"),
        Map.entry("m4v", "video/mp4"), Map.entry("m4a", "audio/mp4"), Map.entry("mov", "video/quicktime"),
        Map.entry("mp3", "audio/mpeg"), Map.entry("ogg", "audio/ogg"), Map.entry("opus", "audio/ogg"),
        Map.entry("wav", "audio/wav"), Map.entry("zip", "application/zip"), Map.entry("gz", "application/gzip"),
        Map.entry("ts", "video/mp2t"), Map.entry("m2ts", "video/mp2t"), Map.entry("mts", "video/mp2t"),
        Map.entry("flac", "audio/flac"), Map.entry("oga", "audio/ogg"));

    /** Extensions that promise audio or video in a container Rondo can index. */
    private static final Set<String> MEDIA = Set.of("webm", "mkv", "mp4", "m4v", "m4a", "mov");

    private MimeTypes() {
    }

    /** The content type of a name by its extension; {@code application/octet-stream} if unknown. */
    public static String byName(String name) {
        return BY_EXTENSION.getOrDefault(ObjectNames.extension(name), "application/octet-stream");
    }

    /** True if the name's extension says it is WebM/Matroska or MP4 media. */
    public static boolean promisesMedia(String name) {
        return MEDIA.contains(ObjectNames.extension(name));
    }
}

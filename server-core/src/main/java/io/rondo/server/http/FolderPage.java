package io.rondo.server.http;

import io.rondo.content.ingest.Directory;
import io.rondo.content.model.MediaObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The page a person sees at a folder's path: its sub-folders and objects, with sizes, types and
 * times. The home page, {@code /}, is the library's top folder with a welcome above it: what
 * Rondo is, where the player is, how to add files. The player's own folder is Rondo's, not the
 * library's, and is left out of the listing.
 */
final class FolderPage {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
        .withZone(ZoneOffset.UTC);

    private FolderPage() {
    }

    /**
     * One line of a folder's page: a sub-folder, with the count and total size of the objects under
     * it, or an object, with its type (a clip's MSE type and duration) and when it last changed.
     *
     * @param modifiedMs when the object last changed, ms since the epoch, or -1 for a folder or where unknown
     */
    record Row(String name, boolean folder, long size, int objects, String type, boolean clip, long modifiedMs) {

        /** A line of this node's directory. */
        static Row of(Directory.Entry entry) {
            if (entry.folder()) {
                return new Row(entry.name(), true, entry.size(), entry.objects(), null, false, -1);
            }
            MediaObject object = entry.object();
            return new Row(entry.name(), false, entry.size(), 1, object.media() == null ? object.mimeType()
                : String.format(Locale.ROOT, "%s, %.1f s", object.media().mseType(),
                    object.media().durationNs() / 1e9), object.media() != null, object.modifiedMs());
        }
    }

    static String render(String folder, List<Directory.Entry> entries) {
        return render(folder, entries.stream().map(Row::of).toList(), false);
    }

    /**
     * The page of {@code folder}; with {@code welcome} (the home page), a welcome above the listing,
     * which points to {@code /index.html} when {@code entries} hold one (a library's own front page).
     */
    static String render(String folder, List<Row> entries, boolean welcome) {
        StringBuilder page = new StringBuilder(2048);
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
            .append(html(folder)).append(" - Rondo</title>\n<style>\n")
            .append("body{font-family:system-ui,sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;")
            .append("color:#222}\n")
            .append("table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .6rem;")
            .append("border-bottom:1px solid #e4e4e4}td.n{text-align:right;font-variant-numeric:tabular-nums}\n")
            .append("a{color:#0b57d0;text-decoration:none}a:hover{text-decoration:underline}.k{color:#666}\n")
            .append("a.f{font-size:.8em;color:#666;margin-left:.4rem}td{overflow-wrap:anywhere}\n")
            .append("@media(max-width:40rem){h1{font-size:1.4rem}th:nth-child(4),td:nth-child(4){display:none}")
            .append("th,td{padding:.35rem .3rem}body{margin-top:.8rem}}\n")
            .append(".w{background:#f4f7fc;border-radius:.5rem;padding:.2rem 1rem;margin-bottom:1.2rem}\n")
            .append("</style>\n<link rel=\"icon\" href=\"/favicon.ico\">\n</head>\n<body>\n<h1>")
            .append(breadcrumbs(folder)).append("</h1>\n");
        if (welcome) {
            page.append("<div class=\"w\">\n<p>Welcome to Rondo, a multimedia server. Clips (&#9654;) play in Rondo's ")
                .append("own <a href=\"/player/\">player</a> as streams read from the disks in rounds, so an admitted ")
                .append("stream never stalls; documents and pictures open as they are, over HTTP, in the time the ")
                .append("streams leave.</p>\n");
            if (entries.stream().anyMatch(entry -> entry.name().equals(INDEX))) {
                page.append("<p>This library has a front page of its own: <a href=\"").append(INDEX).append("\">")
                    .append(INDEX.substring(1)).append("</a>.</p>\n");
            }
            page.append("<p>Add files with <code>./rondo ingest FILE</code>; see them with <code>./rondo ls</code>.")
                .append("</p>\n</div>\n");
        }
        if (entries.isEmpty()) {
            page.append(welcome ? "<p>The library is empty.</p>\n"
                : "<p>This folder is empty. Add files with <code>./rondo ingest FILE</code>.</p>\n");
        } else {
            page.append("<table>\n<thead><tr><th>Name</th><th>Size</th><th>Type</th><th>Modified (UTC)</th></tr>")
                .append("</thead>\n<tbody>\n");
            for (Row entry : entries) {
                String label = entry.name().substring(folder.length());
                boolean clip = entry.clip();
                page.append("<tr><td><a href=\"").append(html(clip ? playerHref(entry.name()) : href(entry.name())))
                    .append("\">").append(clip ? "&#9654; " : "").append(html(label)).append("</a>");
                if (clip) {
                    page.append(" <a class=\"f\" href=\"").append(html(href(entry.name())))
                        .append("\" title=\"the file itself, over HTTP\">file</a>");
                }
                if (clip && isMp4(entry.type())) {
                    page.append(" <a class=\"f\" href=\"").append(html(href(entry.name()) + HlsRoutes.PLAYLIST_SUFFIX))
                        .append("\" title=\"its HLS playlist, for Safari, VLC, ffplay, TVs\">HLS</a>");
                }
                page.append("</td><td class=\"n\">").append(size(entry.size())).append("</td><td class=\"k\">");
                if (entry.folder()) {
                    page.append("folder, ").append(entry.objects())
                        .append(entry.objects() == 1 ? " object" : " objects")
                        .append("</td><td></td></tr>\n");
                } else {
                    page.append(html(entry.type())).append("</td><td>")
                        .append(entry.modifiedMs() < 0 ? "" : WHEN.format(Instant.ofEpochMilli(entry.modifiedMs())))
                        .append("</td></tr>\n");
                }
            }
            page.append("</tbody>\n</table>\n");
        }
        return page.append("</body>\n</html>\n").toString();
    }

    /** Whether a clip of type {@code type} is fragmented MP4, which HLS carries (docs/hls.md). */
    private static boolean isMp4(String type) {
        return type != null && (type.startsWith("video/mp4") || type.startsWith("audio/mp4"));
    }

    /** A library's own front page, linked from the welcome when it has one. */
    static final String INDEX = "/index.html";

    private static String breadcrumbs(String folder) {
        StringBuilder crumbs = new StringBuilder("<a href=\"/\">Rondo</a> /");
        String path = "/";
        for (String part : folder.substring(1).split("/")) {
            if (!part.isEmpty()) {
                path += part + "/";
                crumbs.append(" <a href=\"").append(html(href(path))).append("\">").append(html(part)).append("</a> /");
            }
        }
        return crumbs.toString();
    }

    /** The bundled player's page for a continuous object. */
    static String playerHref(String name) {
        return "/player/?src=" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    /** A name (which starts with '/') as a URL path: each segment percent-encoded. */
    static String href(String name) {
        StringBuilder href = new StringBuilder();
        for (String segment : name.substring(1).split("/", -1)) {
            href.append('/').append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return href.toString();
    }

    private static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    static String html(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}

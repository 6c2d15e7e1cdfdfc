package io.rondo.content.ingest;

import io.rondo.content.catalog.Catalog;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Object names: paths in the directory tree, which are also their HTTP paths. A name starts with
 * '/', its segments are non-empty, not {@code .} or {@code ..}, free of control characters and
 * backslashes, and it does not end with '/'. Folders are the prefixes of names. A name is kept in
 * Unicode's composed form (NFC), as it is looked up: {@code café} typed with a combining accent
 * (NFD, as macOS writes file names) and with a precomposed {@code é} is one name, shown alike and
 * served alike. A name is an object's or a folder's, never both ({@link #clash}).
 */
public final class ObjectNames {

    /** The longest name accepted. */
    public static final int MAX_LENGTH = 1024;

    private ObjectNames() {
    }

    /**
     * The name normalized (a missing leading '/' added, repeated '/' folded, composed to NFC), or an
     * error saying why not.
     */
    public static String normalize(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an object name must not be empty");
        }
        String composed = ascii(name) || Normalizer.isNormalized(name, Normalizer.Form.NFC) ? name
            : Normalizer.normalize(name, Normalizer.Form.NFC);
        String slashed = collapseSlashes(composed.startsWith("/") ? composed : "/" + composed);
        if (slashed.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("an object name must be at most " + MAX_LENGTH + " characters, was "
                + slashed.length());
        }
        if (slashed.endsWith("/")) {
            throw new IllegalArgumentException("'" + name + "' names a folder; an object name ends with a file name");
        }
        for (int start = 1; start < slashed.length(); ) {
            int end = slashed.indexOf('/', start);
            if (end < 0) {
                end = slashed.length();
            }
            boolean dots = slashed.charAt(start) == '.'
                && (end - start == 1 || end - start == 2 && slashed.charAt(start + 1) == '.');
            if (dots) {
                throw new IllegalArgumentException("'" + name + "' contains '" + slashed.substring(start, end)
                    + "'; names cannot climb");
            }
            start = end + 1;
        }
        for (int i = 0; i < slashed.length(); i++) {
            char c = slashed.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                throw new IllegalArgumentException("'" + name.replaceAll("\\p{Cntrl}", "?") + "' contains a "
                    + (c == '\\' ? "backslash" : String.format(Locale.ROOT, "control character (0x%02x)", (int) c))
                    + "; names are paths with '/' between segments");
            }
        }
        return slashed;
    }

    /** Whether a name is all ASCII, which is NFC as it is (the common case, checked without the normalizer). */
    private static boolean ascii(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The path with every run of '/' made one; the path itself when it has none (a request's usual case). */
    private static String collapseSlashes(String path) {
        if (!path.contains("//")) {
            return path;
        }
        StringBuilder collapsed = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '/' || collapsed.length() == 0 || collapsed.charAt(collapsed.length() - 1) != '/') {
                collapsed.append(c);
            }
        }
        return collapsed.toString();
    }

    /**
     * Why an object cannot be named {@code name} (normalized) beside the names in {@code catalog}: a
     * folder has the name ({@code /t/} holds objects, so {@code /t} cannot be one), or an object has
     * the name of one of its folders ({@code /t} is an object, so {@code /t/a} cannot be); null when
     * it can. A path names one thing, as on a file system, and a folder's page never hides an object.
     */
    public static String clash(Catalog catalog, String name) {
        for (int slash = name.indexOf('/', 1); slash > 0; slash = name.indexOf('/', slash + 1)) {
            String folder = name.substring(0, slash);
            if (catalog.byName(folder).isPresent()) {
                return "an object is named " + folder + ", so " + name + " cannot be: a name is an object's or a "
                    + "folder's, not both";
            }
        }
        if (!catalog.page(name + "/", null, 1).isEmpty()) {
            return "a folder is named " + name + "/, so no object can be named " + name + ": a name is an object's "
                + "or a folder's, not both";
        }
        return null;
    }

    /** A folder normalized to start and end with '/': {@code /videos/}. */
    public static String folder(String folder) {
        if (folder == null || folder.isBlank() || folder.equals("/")) {
            return "/";
        }
        String trimmed = folder.endsWith("/") ? folder.substring(0, folder.length() - 1) : folder;
        return normalize(trimmed) + "/";
    }

    /** The last segment of a name: {@code clip.webm}. */
    public static String fileName(String name) {
        return name.substring(name.lastIndexOf('/') + 1);
    }

    /** The extension of a name, lower case, without the dot; empty if none. */
    public static String extension(String name) {
        String file = fileName(name);
        int dot = file.lastIndexOf('.');
        return dot <= 0 ? "" : file.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}

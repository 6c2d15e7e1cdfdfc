package io.rondo.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * Where a stream is, as a person writes it: {@code rondo://HOST:PORT/NAME}, the server's stream
 * port and an object's name in its library. An IPv6 host is written in brackets
 * ({@code rondo://[::1]:8554/a.webm}) and connected to without them. NAME may be written as
 * {@code rondo ls} prints it, spaces, brackets and all ({@code rondo://h:8554/my clip [hd].mp4}),
 * or percent-encoded ({@code my%20clip.mp4}); {@code ?} and {@code #} are encoded as %3F and %23.
 *
 * @param host       the server's host name or address, without brackets
 * @param port       the server's stream port
 * @param objectName the object's name, as OPEN carries it (the path without its leading slash)
 */
public record StreamUrl(String host, int port, String objectName) {

    /**
     * Reads a {@code rondo://} URL.
     *
     * @throws IllegalArgumentException saying what a stream URL looks like, if {@code text} is not one
     */
    public static StreamUrl parse(String text) {
        URI uri;
        try {
            uri = new URI(escaped(text));
        } catch (URISyntaxException e) {
            throw bad(text);
        }
        if (!"rondo".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1
            || uri.getPort() > 65535 || uri.getPath() == null || uri.getPath().length() < 2
            || uri.getQuery() != null || uri.getFragment() != null) {
            throw bad(text);
        }
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new StreamUrl(host, uri.getPort(), uri.getPath().substring(1));
    }

    /**
     * The URL with what a URI cannot hold in its path percent-encoded (spaces, brackets, non-ASCII
     * letters, a '%' that starts no escape), as a name is printed; escapes already there are kept.
     */
    private static String escaped(String text) {
        int authority = text.indexOf("://");
        int path = authority < 0 ? 0 : text.indexOf('/', authority + 3);
        if (path < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, path);
        for (int i = path; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escape = c == '%' && i + 2 < text.length() && hex(text.charAt(i + 1)) && hex(text.charAt(i + 2));
            if (!escape && (c == '%' || c <= ' ' || c >= 0x7f || "\"<>\\^`{|}[]".indexOf(c) >= 0)) {
                int end = Character.isHighSurrogate(c) && i + 1 < text.length() ? i + 2 : i + 1;
                for (byte b : text.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                    percent(out, b);
                }
                i = end - 1;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean hex(char c) {
        return Character.digit(c, 16) >= 0;
    }

    /**
     * The URL, as {@link #parse} reads it back: {@code rondo://HOST:PORT/NAME}, NAME percent-encoded
     * as {@link #path} encodes it.
     */
    public String url() {
        return "rondo://" + address() + "/" + path(objectName);
    }

    /**
     * An object's name as a URL path, without the leading slash: each UTF-8 byte other than a
     * letter, a digit, {@code - . _ ~} or the folders' {@code /} percent-encoded.
     *
     * @param objectName the name, as OPEN carries it
     */
    public static String path(String objectName) {
        StringBuilder out = new StringBuilder(objectName.length() + 16);
        for (byte b : objectName.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~/".indexOf(c) >= 0)) {
                out.append(c);
            } else {
                percent(out, b);
            }
        }
        return out.toString();
    }

    private static void percent(StringBuilder out, byte b) {
        out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
    }

    /** {@code HOST:PORT}, for messages; an IPv6 host in brackets. */
    public String address() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("the URL must be rondo://HOST:PORT/NAME, was '" + text + "'");
    }
}

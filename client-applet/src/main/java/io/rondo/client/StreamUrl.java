package io.rondo.client;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where a stream is, as a person writes it: {@code rondo://HOST:PORT/NAME}, the server's stream
 * port and an object's name in its library. An IPv6 host is written in brackets
 * ({@code rondo://[::1]:8554/a.webm}) and connected to without them.
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
            uri = new URI(text);
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

    /** {@code HOST:PORT}, for messages; an IPv6 host in brackets. */
    public String address() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("the URL must be rondo://HOST:PORT/NAME, was '" + text + "'");
    }
}

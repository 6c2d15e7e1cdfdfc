package io.rondo.server.stream;

import io.rondo.server.config.StreamSettings;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which web pages may open a stream over WebSocket ({@code streams.allowedOrigins}). A browser
 * sends any page's WebSocket upgrade with the page's {@code Origin}, and the server's cookies or
 * network position would otherwise be lent to any site a viewer visits; so an upgrade is let in
 * only from the pages listed: {@value StreamSettings#SAME_ORIGIN} (the server's own pages, such
 * as the bundled player: the Origin's host and port are the request's {@code Host}), origins
 * written out, or {@value StreamSettings#ANY_ORIGIN}. A request with no Origin is not a browser's
 * page and is let in. Origins compare as scheme, host (any case) and port, a missing port being
 * the scheme's default.
 */
public final class AllowedOrigins {

    private final boolean any;
    private final boolean sameOrigin;
    private final Set<String> listed;

    /** The origins {@code allowed} lists, as {@code streams.allowedOrigins} writes them. */
    public AllowedOrigins(List<String> allowed) {
        this.any = allowed.contains(StreamSettings.ANY_ORIGIN);
        this.sameOrigin = allowed.contains(StreamSettings.SAME_ORIGIN);
        this.listed = allowed.stream().map(AllowedOrigins::normalized).filter(origin -> origin != null)
            .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Whether an upgrade with this {@code Origin} header may go on.
     *
     * @param origin the request's Origin, or null if it had none
     * @param host   the request's Host, or null if it had none
     */
    public boolean allows(String origin, String host) {
        if (origin == null || any) {
            return true;
        }
        String normalized = normalized(origin);
        if (normalized == null) {
            return false;
        }
        if (listed.contains(normalized)) {
            return true;
        }
        if (!sameOrigin || host == null) {
            return false;
        }
        String scheme = normalized.substring(0, normalized.indexOf(':'));
        return normalized.equals(normalized(scheme + "://" + host.trim()));
    }

    /** {@code scheme://host:port} in lower case with the port written out, or null if it is no http(s) origin. */
    private static String normalized(String origin) {
        try {
            URI uri = new URI(origin.trim());
            String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
                return null;
            }
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : 80;
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}

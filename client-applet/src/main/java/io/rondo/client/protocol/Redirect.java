package io.rondo.client.protocol;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * REDIRECT: the server answers an OPEN by naming another node to ask instead. Sent only to a client
 * whose OPEN set {@link Open#FLAG_FOLLOWS_REDIRECTS}; the server then closes the connection, and the
 * client sends the same OPEN to {@code target}.
 *
 * @param reason why this node does not serve the stream
 * @param target where to OPEN instead, in the binding the client came by: {@code rondo://HOST:PORT/NAME}
 *     for TCP, {@code ws://HOST:PORT/stream/NAME} (or {@code wss://}) for WebSocket, NAME percent-encoded
 */
public record Redirect(RedirectReason reason, String target) implements Frame {

    /** Checks the reason is given and the target is a {@code rondo:}, {@code ws:} or {@code wss:} URL with a host. */
    public Redirect {
        if (reason == null) {
            throw new IllegalArgumentException("reason is null");
        }
        Wire.utf8(target, "target");
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("target '" + target + "' is not a URL: " + e.getMessage(), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("rondo") || scheme.equals("ws") || scheme.equals("wss")) || uri.getHost() == null) {
            throw new IllegalArgumentException("target '" + target
                + "' is not a rondo://HOST:PORT/NAME or ws://HOST:PORT/stream/NAME URL");
        }
    }

    @Override
    public FrameType type() {
        return FrameType.REDIRECT;
    }
}

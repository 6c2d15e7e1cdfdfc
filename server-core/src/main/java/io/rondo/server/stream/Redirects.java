package io.rondo.server.stream;

import io.rondo.client.protocol.Open;
import io.rondo.client.protocol.Redirect;
import io.rondo.client.protocol.RedirectReason;
import io.rondo.server.observe.AdmissionLog;

import java.util.Locale;
import java.util.Optional;

/**
 * Turns an OPEN this node refuses into a REDIRECT to a node that can serve it
 * (docs/stream-protocol.md, Redirects): an object this node does not hold (NOT_HERE), or one it has
 * no room for (NO_ROOM), for a client that follows redirects, when {@link Elsewhere} knows a node.
 * A refusal for the client's own sake (its profile, its start) is never redirected: every node
 * would give it. Each redirect goes to the admission log and the metrics. Thread-safe.
 */
final class Redirects {

    private final Elsewhere elsewhere;
    private final AdmissionLog log;

    Redirects(Elsewhere elsewhere, AdmissionLog log) {
        this.elsewhere = elsewhere;
        this.log = log;
    }

    /**
     * The REDIRECT answering {@code open} in place of {@code refused}, or empty to send the refusal.
     *
     * @param webSocket whether the client came by the WebSocket binding, whose URL the target then is
     * @param client    the client's address, for the log
     */
    Optional<Redirect> of(Open open, StreamAdmission.Refused refused, boolean webSocket, String client) {
        if (!open.followsRedirects()) {
            return Optional.empty();
        }
        RedirectReason reason = switch (refused.reason()) {
            case NOT_FOUND -> RedirectReason.NOT_HERE;
            case DISK_TIME, BUFFER_MEMORY, NETWORK -> RedirectReason.NO_ROOM;
            default -> null;
        };
        if (reason == null) {
            return Optional.empty();
        }
        String object = open.objectName();
        return elsewhere.find(object, reason == RedirectReason.NO_ROOM).map(target -> {
            String url = webSocket ? target.webSocketUrl(object) : target.streamUrl(object);
            log.redirected(object, client, reason.name().toLowerCase(Locale.ROOT).replace('_', '-'), url);
            return new Redirect(reason, url);
        });
    }
}

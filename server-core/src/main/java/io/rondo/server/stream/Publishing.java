package io.rondo.server.stream;

import io.rondo.server.live.LiveRecordings;

import java.util.function.Predicate;

/**
 * What publishing needs: the recordings, and which tokens may publish (the {@code publish} scope).
 *
 * @param recordings the recordings being written; null on a server that records nothing
 * @param mayPublish whether a bearer token has the {@code publish} scope
 */
public record Publishing(LiveRecordings recordings, Predicate<String> mayPublish) {

    /** A server that takes no publisher: every PUBLISH is refused. */
    public static final Publishing NONE = new Publishing(null, token -> false);
}

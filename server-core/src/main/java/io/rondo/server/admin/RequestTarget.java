package io.rondo.server.admin;

import io.netty.handler.codec.http.QueryStringDecoder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a request's target names: its path's segments, percent-decoded, the path they make, and the
 * query. A {@code '+'} in a path is itself, as the HTTP port reads it; only a query's is a space.
 *
 * @param path     the decoded path
 * @param segments the decoded segments of the path
 * @param query    the query parameters
 */
record RequestTarget(String path, List<String> segments, Map<String, List<String>> query) {

    /** The target of the request line's {@code uri}. */
    static RequestTarget of(String uri) {
        QueryStringDecoder decoder = new QueryStringDecoder(uri);
        List<String> segments = new ArrayList<>();
        for (String segment : Route.split(decoder.rawPath())) {
            segments.add(QueryStringDecoder.decodeComponent(segment.replace("+", "%2B")));
        }
        return new RequestTarget("/" + String.join("/", segments), segments, decoder.parameters());
    }
}

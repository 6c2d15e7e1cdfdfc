package io.rondo.server.admin;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.http.RefusedRequest;

/** The problem of a request that the codec or RFC 9112's rules refused before it reached a route. */
final class MalformedRequest {

    private MalformedRequest() {
    }

    /**
     * The problem of a request whose head failed to decode with {@code cause}, with the status the
     * HTTP port gives it: 414 for a long request line, 431 for long headers, the rule's own (501,
     * 505), and 400 ({@code invalid-request}) for a bad Host and anything else that is not HTTP/1.1.
     */
    static Problem problem(Throwable cause) {
        if (cause instanceof RefusedRequest refused) {
            return refused.status().code() == HttpResponseStatus.BAD_REQUEST.code()
                ? Problem.invalid(null, refused.getMessage())
                : Problem.malformed(refused.status().code(), refused.getMessage());
        }
        if (cause instanceof TooLongHttpLineException) {
            return Problem.malformed(414, "the request line is longer than " + HttpSettings.DEFAULT_MAX_REQUEST_LINE
                + " bytes");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return Problem.malformed(431, "the headers are longer than " + HttpSettings.DEFAULT_MAX_HEADERS
                + " bytes");
        }
        return Problem.invalid(null, "the request is not valid HTTP/1.1: " + cause.getMessage());
    }
}

package io.rondo.server.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Why a request breaks RFC 9112's rules, carried as its failed decoder result, so that it is
 * answered in its turn among pipelined requests, after the answers before it, as a request the
 * decoder itself refused is. No stack trace: it is the client's fault, not a failure of Rondo's.
 */
public final class RefusedRequest extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient HttpResponseStatus status;

    /** A request refused with {@code status}, for the reason {@code why}. */
    public RefusedRequest(HttpResponseStatus status, String why) {
        super(why, null, false, false);
        this.status = status;
    }

    /** The status that answers the request: 400, 413, 501 or 505. */
    public HttpResponseStatus status() {
        return status;
    }
}

package io.rondo.server.admin;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * A request's bearer token against its route: the scope the token gives, or 401 when the route
 * needs a token and none valid was given, 403 when a read token asks for a change or to publish.
 */
final class AdminAuthentication {

    private final AdminTokens tokens;

    AdminAuthentication(AdminTokens tokens) {
        this.tokens = tokens;
    }

    /**
     * The scope {@code headers}' token gives, which allows {@code route}.
     *
     * @throws Problem 401 or 403 if it does not allow the route
     */
    Scope authorize(HttpHeaders headers, Route route) {
        Scope scope = tokens.scopeOf(headers.get(HttpHeaderNames.AUTHORIZATION));
        if (!scope.allows(route.scope())) {
            throw scope == Scope.PUBLIC ? Problem.unauthorized("this resource needs a bearer token: "
                + "Authorization: Bearer TOKEN", false)
                : route.scope() == Scope.PUBLISH ? Problem.forbidden("this needs the publish or the admin token")
                    .header("WWW-Authenticate", "Bearer realm=\"rondo\", error=\"insufficient_scope\", "
                        + "scope=\"publish\"")
                : Problem.forbidden(scope == Scope.READ ? "this needs the admin token; the read token only reads"
                    : "this needs the read or the admin token; the publish token only publishes");
        }
        return scope;
    }
}

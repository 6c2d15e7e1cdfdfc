package io.rondo.server.admin;

import io.rondo.server.http.ConditionalRequests;

import java.util.Locale;

/**
 * The policy, {@code /api/v1/policy}: read with its ETag, and changed at run time by a JSON merge
 * patch (RFC 7396) that names the ETag it was made against in {@code If-Match}. {@link PolicyControl}
 * applies and persists the change.
 */
final class PolicyResource {

    private final PolicyControl policy;
    private final AdminWorker files;

    /** {@code files} writes the policy file of a change, off the admin event loop. */
    PolicyResource(PolicyControl policy, AdminWorker files) {
        this.policy = policy;
        this.files = files;
    }

    /** Adds {@code GET} and {@code PATCH /api/v1/policy}. */
    void routes(AdminRouter router) {
        router.add(
            Route.sync("GET", "/api/v1/policy", Scope.READ, this::read),
            Route.of("PATCH", "/api/v1/policy", Scope.ADMIN, request -> files.call(() -> patch(request))));
    }

    /**
     * The policy with its ETag; 304 with no body when the request's If-None-Match names the ETag
     * (RFC 9110 Section 13.1.2): a dashboard polling it costs no body while nothing changed.
     */
    private ApiReply read(ApiRequest request) {
        PolicyView now;
        String etag;
        synchronized (policy) {
            now = policy.current();
            etag = policy.etag();
        }
        if (ConditionalRequests.noneMatchHolds(request.headers().get("If-None-Match"), etag)) {
            return ApiReply.notModified(etag);
        }
        return ApiReply.ok(now).header("ETag", etag).header("Cache-Control", "no-cache");
    }

    private ApiReply patch(ApiRequest request) {
        String type = request.headers().get("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/merge-patch+json")) {
            throw Problem.unsupportedMediaType("PATCH /api/v1/policy takes application/merge-patch+json (RFC 7396), "
                + "was " + (type == null ? "no Content-Type" : type));
        }
        PolicyView.Change change = policy.patch(request.headers().get("If-Match"), request.body());
        return ApiReply.ok(change).header("ETag", policy.etag());
    }
}
